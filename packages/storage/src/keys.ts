/**
 * Key helpers shared by both backends. Keys order by their UTF-8 bytes, which is how Redis
 * orders ZRANGEBYLEX members; JavaScript's `<` orders UTF-16 code units, which differs for
 * characters above U+FFFF, so the memory backend uses `compareKeys`.
 */

/** Maps a UTF-16 code unit so that unit order equals code point (= UTF-8 byte) order. */
function fixup(unit: number): number {
  if (unit < 0xd800) return unit;
  // Surrogates (U+10000 and up) must sort after U+E000..U+FFFF.
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixup(x) - fixup(y);
  }
  return a.length - b.length;
}

/**
 * The root a key or list prefix belongs to, its first segment: `/pods/ns/name` and `/pods/ns`
 * → `/pods`. Each resource's objects live under one root (the watch cache, encryption and
 * --store-servers-overrides all work per root).
 */
export function keyRoot(key: string): string {
  const slash = key.indexOf('/', 1);
  return slash === -1 ? key : key.slice(0, slash);
}

/**
 * The key range a list or watch covers: recursive reads take everything below `prefix/`
 * (Kubernetes appends the slash so `/pods/a` never matches `/pods/ab`).
 */
export interface KeyScope {
  readonly recursive: boolean;
  /** For recursive scopes, the prefix ending in '/'; otherwise the exact key. */
  readonly key: string;
}

export function keyScope(prefix: string, recursive = true): KeyScope {
  if (!recursive) return { recursive, key: prefix };
  return { recursive, key: prefix.endsWith('/') ? prefix : `${prefix}/` };
}

export function inScope(scope: KeyScope, key: string): boolean {
  return scope.recursive ? key.startsWith(scope.key) : key === scope.key;
}

/** The smallest key strictly greater than `key` (the continue position after it). */
export const keyAfter = (key: string): string => `${key}\u0000`;
