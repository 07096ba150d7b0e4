/**
 * Accept-header parsing as the real server does it (goautoneg.ParseAccept): clauses ordered by
 * q, then by specificity, and the first clause an endpoint can serve decides the response.
 */

export interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  /** Lower-case names, unquoted values; `q` is kept apart. */
  readonly params: Readonly<Record<string, string>>;
  readonly q: number;
}

function unquote(v: string): string {
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
}

function parseClause(text: string): MediaRange | undefined {
  const [range = '', ...rawParams] = text.split(';');
  const [type = '', subtype = ''] = range.trim().toLowerCase().split('/');
  if (type === '') return undefined;
  const params: Record<string, string> = {};
  let q = 1;
  for (const p of rawParams) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const name = p.slice(0, eq).trim().toLowerCase();
    const value = unquote(p.slice(eq + 1).trim());
    if (name === 'q') {
      const n = Number(value);
      q = Number.isFinite(n) ? n : 0;
    } else if (name !== '') {
      params[name] = value;
    }
  }
  // goautoneg reads a bare `*` as `*/*`.
  return { type, subtype: subtype || (type === '*' ? '*' : ''), params, q };
}

/** The clauses in the order the server tries them; an absent or empty header means `*\/*`. */
export function parseAccept(header: string | undefined): MediaRange[] {
  const text = header?.trim() ? header : '*/*';
  const clauses = text
    .split(',')
    .map(parseClause)
    .filter((c): c is MediaRange => c !== undefined && c.q > 0);
  const rank = (c: MediaRange): number => (c.type === '*' ? 2 : c.subtype === '*' ? 1 : 0);
  // Array.prototype.sort is stable, so equal clauses keep the client's order.
  return clauses.sort((a, b) => b.q - a.q || rank(a) - rank(b));
}

/** Whether the clause admits `type/subtype` (wildcards included). */
export function rangeMatches(c: MediaRange, type: string, subtype: string): boolean {
  return (c.type === '*' || c.type === type) && (c.subtype === '*' || c.subtype === subtype);
}

/** A clause that admits plain JSON and asks for no `as=` transformation. */
export function isPlainJson(c: MediaRange): boolean {
  return rangeMatches(c, 'application', 'json') && c.params['as'] === undefined;
}

/** A clause asking for the protobuf encoding of the object itself (no `as=` transformation). */
export function isPlainProtobuf(c: MediaRange): boolean {
  return c.type === 'application' && c.subtype === 'vnd.kubernetes.protobuf' && c.params['as'] === undefined;
}

/** A clause asking for JSON transformed into group `g`, version in `versions`, kind `as`. */
export function asTransform(
  c: MediaRange,
  group: string,
  kind: string,
  versions: readonly string[],
): string | undefined {
  if (c.type !== 'application' || c.subtype !== 'json') return undefined;
  const { g, v, as } = c.params;
  return g === group && as === kind && v !== undefined && versions.includes(v) ? v : undefined;
}
