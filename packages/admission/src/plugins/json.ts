/** Readers for the stored JSON the plugins inspect (they need a few fields, not whole models). */

export type Json = Record<string, unknown>;

export function obj(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

export function arr(v: unknown): Json[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((e): Json[] => {
    const o = obj(e);
    return o ? [o] : [];
  });
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A string map (labels, annotations); absent and empty are the same. */
export function strings(v: unknown): Record<string, string> {
  const o = obj(v) ?? {};
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Equality of JSON values where an absent value, null, [] and {} are alike (Go's semantic equality). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(normalize);
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v)
      .map(([k, x]) => [k, normalize(x)] as const)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return entries.length === 0 ? undefined : Object.fromEntries(entries);
  }
  return v === null ? undefined : v;
}
