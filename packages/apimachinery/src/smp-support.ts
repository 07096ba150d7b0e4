/**
 * Helpers of the strategic merge patch: the patch-strategy schema, Go's error texts and the
 * list-ordering rules (strategicpatch normalizeElementOrder and friends).
 */
import { badRequest, unprocessableEntity, type StatusError } from './errors.js';
import { goSprintV } from './go-format.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';

/**
 * The Go struct tags `patchStrategy` / `patchMergeKey` of one field. Strategies: `merge`
 * (lists merged by key, primitive lists as sets), `replace`, `retainKeys`, `merge,retainKeys`.
 */
export interface SmpFieldMeta {
  readonly patchStrategy?: string;
  readonly patchMergeKey?: string;
}

/**
 * Patch metadata by dotted field path without list indices (`spec.containers.ports`). A string
 * is shorthand for `{ patchStrategy: 'merge', patchMergeKey: <string> }`. Fields not listed
 * behave like untagged Go fields: maps merge, lists are replaced.
 */
export type SmpSchema = Readonly<Record<string, SmpFieldMeta | string>>;

/** The ObjectMeta tags every built-in object shares. */
export const objectMetaSmpSchema: SmpSchema = {
  'metadata.finalizers': { patchStrategy: 'merge' },
  'metadata.ownerReferences': 'uid',
};

export interface FieldMeta {
  readonly strategy: string;
  readonly mergeKey: string;
}

export function lookupMeta(schema: SmpSchema, path: string): FieldMeta {
  const e = Object.hasOwn(schema, path) ? schema[path] : undefined;
  if (e === undefined) return { strategy: '', mergeKey: '' };
  if (typeof e === 'string') return { strategy: 'merge', mergeKey: e };
  const strategies = (e.patchStrategy ?? '').split(',').filter((s) => s !== '' && s !== 'retainKeys');
  return { strategy: strategies[0] ?? '', mergeKey: e.patchMergeKey ?? '' };
}

export const directiveMarker = '$patch';
export const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
export const setElementOrderPrefix = '$setElementOrder';
export const retainKeysDirective = '$retainKeys';

/** The element type the way Go's reflect sees decoded JSON. */
export type GoKind = 'nil' | 'map' | 'slice' | 'string' | 'bool' | 'int64' | 'float64';

export function goKind(v: JsonValue): GoKind {
  if (v === null) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Number.isInteger(v) ? 'int64' : 'float64';
}

const goTypeNames: Readonly<Record<GoKind, string>> = {
  nil: '%!s(<nil>)',
  map: 'map[string]interface {}',
  slice: '[]interface {}',
  string: 'string',
  bool: 'bool',
  int64: 'int64',
  float64: 'float64',
};

// Go's sentinel errors: some are 400s, two are generic 422s. The rest (a wrong type, an unknown
// $patch, a missing merge key...) are not Status errors upstream and reach the client as
// reason-less 500s; every one of them is a fault of the patch document, so Keel answers them as
// 400 BadRequest with Go's message (bad input never gets a 500).
export const patchError = (message: string): StatusError => badRequest(message);
export const errBadPatchFormatForPrimitiveList = (): StatusError => badRequest('invalid patch format of primitive list');
export const errBadPatchFormatForRetainKeys = (): StatusError => badRequest('invalid patch format of retainKeys');
export const errBadPatchFormatForSetElementOrderList = (): StatusError => badRequest('invalid patch type of setElementOrder list');
export const errNoListOfLists = (): StatusError => unprocessableEntity(new Error('lists of lists are not supported'));

export function errBadArgType(expected: GoKind, actual: JsonValue | undefined): StatusError {
  const got = actual === undefined ? 'nil' : goKind(actual);
  return patchError(`expected a ${goTypeNames[expected]}, but received a ${goTypeNames[got]}`);
}

export function errNoMergeKey(m: JsonObject, key: string): StatusError {
  return patchError(`map: ${goSprintV(m)} does not contain declared merge key: ${key}`);
}

export function errBadPatchType(t: JsonValue | undefined, m: JsonObject): StatusError {
  const shown = typeof t === 'string' ? t : `%!s(${goTypeNames[t === undefined ? 'nil' : goKind(t)]}=${goSprintV(t)})`;
  return patchError(`unknown patch type: ${shown} in map: ${goSprintV(m)}`);
}

/** `$deleteFromPrimitiveList/finalizers` → `finalizers`. */
export function extractKey(s: string, prefix: string): string {
  const i = s.indexOf('/');
  if (i < 0 || s.slice(0, i) !== prefix) {
    throw prefix === deleteFromPrimitiveListPrefix ? errBadPatchFormatForPrimitiveList() : errBadPatchFormatForSetElementOrderList();
  }
  return s.slice(i + 1);
}

/** The common element kind of lists (Go's sliceElementType). */
export function sliceElementKind(...lists: readonly JsonValue[][]): GoKind {
  let kind: GoKind | undefined;
  for (const v of lists.flat()) {
    const k = goKind(v);
    if (kind === undefined) {
      if (k === 'slice') throw errNoListOfLists();
      kind = k;
    } else if (kind !== k) {
      throw patchError(`list element types are not identical: ${goSprintV(lists)}`);
    }
  }
  if (kind === undefined) throw patchError('no elements in any of the given slices');
  return kind;
}

export function mergeValueOf(item: JsonValue | undefined, mergeKey: string, kind: GoKind): JsonValue | undefined {
  if (kind !== 'map') return item;
  return isJsonObject(item) && Object.hasOwn(item, mergeKey) ? item[mergeKey] : undefined;
}

function indexIn(list: readonly JsonValue[], item: JsonValue | undefined, mergeKey: string, kind: GoKind): number {
  const want = mergeValueOf(item, mergeKey, kind);
  return list.findIndex((x) => mergeValueOf(x, mergeKey, kind) === want);
}

export function asMap(v: JsonValue): JsonObject {
  if (!isJsonObject(v)) throw errBadArgType('map', v);
  return v;
}

function requireMergeKey(lists: readonly (readonly JsonValue[])[], mergeKey: string): void {
  for (const list of lists) for (const item of list) if (!Object.hasOwn(asMap(item), mergeKey)) throw errNoMergeKey(asMap(item), mergeKey);
}

export function isDeleteItem(v: JsonValue): boolean {
  return asMap(v)[directiveMarker] === 'delete';
}

/**
 * Sorts `toSort` by the position of each item in `order` (stable); `$patch: delete` items go
 * last. Items missing from `order` cannot occur for well-formed lists; they keep their place
 * after the found ones.
 */
function normalizeSliceOrder(toSort: JsonValue[], order: readonly JsonValue[], mergeKey: string, kind: GoKind): JsonValue[] {
  let items = toSort;
  let toDelete: JsonValue[] = [];
  if (kind === 'map') {
    requireMergeKey([toSort, order], mergeKey);
    toDelete = toSort.filter(isDeleteItem);
    items = toSort.filter((v) => !isDeleteItem(v));
  }
  const rank = (v: JsonValue): number => {
    const i = indexIn(order, v, mergeKey, kind);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [...items].sort((a, b) => rank(a) - rank(b)).concat(toDelete);
}

/** Interleaves server-only items into the patch items by their order on the server. */
function mergeSortedSlice(left: JsonValue[], right: JsonValue[], serverOrder: readonly JsonValue[], mergeKey: string, kind: GoKind): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++] ?? null);
    else if (j >= right.length) out.push(left[i++] ?? null);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++] ?? null);
      else out.push(right[j++] ?? null);
    }
  }
  return out;
}

/** Orders a merged list: patch order for patch items, server order for the rest, interleaved. */
export function normalizeElementOrder(
  patchItems: JsonValue[],
  serverOnly: JsonValue[],
  patchOrder: readonly JsonValue[],
  serverOrder: readonly JsonValue[],
  mergeKey: string,
  kind: GoKind,
): JsonValue[] {
  const p = normalizeSliceOrder(patchItems, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

/** Splits `merged` into items present in `by` (by merge key for maps) and the rest. */
export function partitionByPresence(merged: readonly JsonValue[], by: readonly JsonValue[], mergeKey: string, kind: GoKind): [JsonValue[], JsonValue[]] {
  const present: JsonValue[] = [];
  const absent: JsonValue[] = [];
  for (const v of merged) {
    if (kind === 'map') {
      const m = asMap(v);
      if (!Object.hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      const found = by.some((x) => isJsonObject(x) && Object.hasOwn(x, mergeKey) && x[mergeKey] === m[mergeKey]);
      (found ? present : absent).push(v);
    } else {
      (by.includes(v) ? present : absent).push(v);
    }
  }
  return [present, absent];
}
