/**
 * Resource lists (name → quantity text) and the arithmetic quota and limit ranges do on them
 * (pkg/quota/v1/resources.go), over @keel/resource's one quantity parser. Texts are kept in the
 * canonical form Go writes back.
 */
import {
  addQuantity,
  compareQuantity,
  formatQuantity,
  parseQuantity,
  subtractQuantity,
} from '@keel/resource';

export type ResourceList = Record<string, string>;

/** Go's sort.Strings order (byte order), which every printed list uses. */
export const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const namesOf = (list: ResourceList | undefined): string[] => Object.keys(list ?? {}).sort(byteOrder);

export const has = (list: ResourceList | undefined, name: string): boolean =>
  list !== undefined && Object.hasOwn(list, name);

const plus = (a: string, b: string): string =>
  formatQuantity(addQuantity(parseQuantity(a), parseQuantity(b)));

/** quota.Add: every name of either list, summed where both have it. */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = has(out, k) ? plus(out[k] ?? '0', v) : v;
  return out;
}

/** quota.SubtractWithNonNegativeResult: `a - b`, never below zero. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [k, v] of Object.entries(a)) {
    const diff = has(b, k)
      ? subtractQuantity(parseQuantity(v), parseQuantity(b[k] ?? '0'))
      : parseQuantity(v);
    out[k] = diff.nanos < 0n ? '0' : formatQuantity(diff);
  }
  return out;
}

/** quota.Max: every name of either list with the larger quantity. */
export function maxLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [k, v] of Object.entries(b))
    if (!has(out, k) || compareQuantity(parseQuantity(v), parseQuantity(out[k] ?? '0')) > 0) out[k] = v;
  return out;
}

/** quota.Mask: only the given names. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = {};
  for (const k of names) if (has(list, k)) out[k] = list[k] ?? '0';
  return out;
}

/** quota.LessThanOrEqual: whether every name of `a` found in `b` is at most `b`'s; the names that exceed. */
export function exceeding(a: ResourceList, b: ResourceList): string[] {
  return namesOf(a).filter(
    (k) => has(b, k) && compareQuantity(parseQuantity(a[k] ?? '0'), parseQuantity(b[k] ?? '0')) > 0,
  );
}

/** quota.Equals over the canonical texts. */
export function sameList(a: ResourceList | undefined, b: ResourceList | undefined): boolean {
  const x = namesOf(a);
  const y = namesOf(b);
  return (
    x.length === y.length &&
    x.every(
      (k, i) =>
        k === y[i] && compareQuantity(parseQuantity(a?.[k] ?? '0'), parseQuantity(b?.[k] ?? '0')) === 0,
    )
  );
}

/** The quota plugin's prettyPrint: `name=quantity` by name, comma-separated. */
export function prettyPrint(list: ResourceList): string {
  return namesOf(list)
    .map((k) => `${k}=${list[k] ?? '0'}`)
    .join(',');
}
