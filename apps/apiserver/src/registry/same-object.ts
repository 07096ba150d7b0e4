import type { InternalObject } from './resource-view.js';

function definedKeys(o: object): string[] {
  return Object.entries(o)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
}

/** Equal as JSON values, member order aside (undefined members count as absent). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]))
    );
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = definedKeys(a);
    const kb = definedKeys(b);
    const rb = b as Record<string, unknown>;
    const ra = a as Record<string, unknown>;
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(rb, k) && sameJson(ra[k], rb[k]));
  }
  return a === b;
}

/**
 * Whether an update leaves the object as it is: its managedFields and resourceVersion aside,
 * which only change because of a write. Such an update is not written (no new resourceVersion,
 * no watch event), as the real server skips writing byte-identical objects.
 */
export function unchangedByUpdate(next: InternalObject, current: InternalObject): boolean {
  const strip = (o: InternalObject) => {
    const { resourceVersion: _rv, managedFields: _mf, ...meta } = o.metadata;
    return { ...o, metadata: meta };
  };
  return sameJson(strip(next), strip(current));
}
