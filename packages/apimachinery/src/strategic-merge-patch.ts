/**
 * Strategic merge patch (apimachinery strategicpatch.StrategicMergeMapPatch, server options:
 * parallel deletion lists merged, unmatched nulls ignored). Merge-patch semantics plus:
 * - lists whose schema says `merge` are merged: maps by their merge key, primitives as sets;
 * - `$patch: replace | delete` in maps and in merge-list items (`$patch: merge` is refused, as
 *   upstream does);
 * - `$retainKeys`, `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>`.
 *
 * Deviation, on purpose: values taken over from the patch (new keys, replaced lists, appended
 * items) are cleaned of directives and null members. Go leaves that to the typed decode that
 * follows; this server stores JSON as is, so it must not keep `$patch` keys or nulls.
 *
 * Errors: Go's format errors are 400s, lists of lists are 422, the rest are 500s without a
 * reason, as the real server writes them. A patch that is not an object is a 400.
 */
import { badRequest } from './errors.js';
import { goJsonKind, goSprintV } from './go-format.js';
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from './json.js';
import {
  asMap,
  deleteFromPrimitiveListPrefix,
  directiveMarker,
  errBadArgType,
  errBadPatchFormatForRetainKeys,
  errBadPatchType,
  errNoMergeKey,
  extractKey,
  goKind,
  isDeleteItem,
  lookupMeta,
  mergeValueOf,
  normalizeElementOrder,
  partitionByPresence,
  patchError,
  retainKeysDirective,
  setElementOrderPrefix,
  sliceElementKind,
  type SmpSchema,
} from './smp-support.js';

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** `$retainKeys`: drop every original key not listed; the patch may only touch listed keys. */
function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!Object.hasOwn(patch, retainKeysDirective)) return;
  const keep = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(keep)) throw errBadPatchFormatForRetainKeys();
  const set = new Set<JsonValue>(keep);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(deleteFromPrimitiveListPrefix) || k.startsWith(setElementOrderPrefix)) continue;
    if (!set.has(k)) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!set.has(k)) delete original[k];
}

function mergeKeyValueEqual(left: JsonValue, right: JsonValue, mergeKey: string): boolean {
  if (!mergeKey) return left === right;
  const l = asMap(left);
  const r = asMap(right);
  if (!Object.hasOwn(l, mergeKey)) throw errNoMergeKey(l, mergeKey);
  if (!Object.hasOwn(r, mergeKey)) throw errNoMergeKey(r, mergeKey);
  return l[mergeKey] === r[mergeKey];
}

/** Every non-delete patch item must appear in the `$setElementOrder` list, in the same order. */
function validateAgainstSetOrder(patchList: JsonValue[], setOrder: JsonValue[], mergeKey: string): void {
  if (setOrder.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? patchList.filter((v) => !isDeleteItem(v)) : patchList;
  let pi = 0;
  let si = 0;
  while (pi < nonDelete.length && si < setOrder.length) {
    const item = nonDelete[pi] ?? null;
    if (isJsonObject(item) && Object.hasOwn(item, directiveMarker)) {
      pi++;
      continue;
    }
    if (mergeKeyValueEqual(item, setOrder[si] ?? null, mergeKey)) pi++;
    si++;
  }
  if (pi < nonDelete.length && si >= setOrder.length) {
    throw patchError(`The order in patch list:\n${goSprintV(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goSprintV(setOrder)}\n`);
  }
}

class Merger {
  constructor(private readonly schema: SmpSchema) {}

  mergeMap(original: JsonObject, patch: JsonObject, path: string): JsonObject {
    if (Object.hasOwn(patch, directiveMarker)) {
      const directive = patch[directiveMarker];
      if (directive === 'delete') return {};
      if (directive !== 'replace') throw errBadPatchType(directive, patch);
      delete patch[directiveMarker];
      return this.mergeMap({}, patch, path);
    }
    applyRetainKeys(original, patch);
    this.applySetElementOrder(original, patch, path);
    for (const rawKey of Object.keys(patch)) {
      const patchV = patch[rawKey] ?? null;
      const isDeleteList = rawKey.startsWith(deleteFromPrimitiveListPrefix);
      const k = isDeleteList ? extractKey(rawKey, deleteFromPrimitiveListPrefix) : rawKey;
      if (patchV === null) {
        delete original[k];
        continue;
      }
      const childPath = join(path, k);
      const ov = Object.hasOwn(original, k) ? original[k] : undefined;
      if (ov === undefined || goKind(ov) !== goKind(patchV)) {
        if (!isDeleteList) original[k] = this.fresh(patchV, childPath);
        continue;
      }
      const meta = lookupMeta(this.schema, childPath);
      if (isJsonObject(ov) && isJsonObject(patchV)) {
        original[k] = meta.strategy === 'replace' ? this.fresh(patchV, childPath) : this.mergeMap(ov, patchV, childPath);
      } else if (Array.isArray(ov) && Array.isArray(patchV)) {
        // Deletion lists apply whatever the field's strategy is.
        const merge = meta.strategy === 'merge' || isDeleteList;
        original[k] = merge ? this.mergeSlice(ov, patchV, meta.mergeKey, childPath, isDeleteList) : this.fresh(patchV, childPath);
      } else {
        original[k] = patchV;
      }
    }
    return original;
  }

  /** A patch value taken over wholesale, cleaned of directives and null members. */
  private fresh(v: JsonValue, path: string): JsonValue {
    if (isJsonObject(v)) return this.mergeMap({}, v, path);
    if (!Array.isArray(v)) return v;
    const meta = lookupMeta(this.schema, path);
    const hasDirectives = v.some((x) => isJsonObject(x) && Object.hasOwn(x, directiveMarker));
    if (meta.strategy === 'merge' && meta.mergeKey && hasDirectives) return this.mergeSlice([], v, meta.mergeKey, path, false);
    return v.map((x) => (isJsonObject(x) ? this.mergeMap({}, x, path) : x));
  }

  mergeSlice(original: JsonValue[], patch: JsonValue[], mergeKey: string, path: string, isDeleteList: boolean): JsonValue[] {
    if (original.length === 0 && patch.length === 0) return original;
    const kind = sliceElementKind(original, patch);
    let orig = original;
    let patchItems = patch;
    let merged: JsonValue[];
    if (kind !== 'map') {
      if (isDeleteList) return original.filter((v) => !patch.includes(v));
      merged = [...new Set([...original, ...patch])];
    } else {
      if (!mergeKey) throw patchError(`cannot merge lists without merge key for ${path}`);
      [orig, patchItems] = this.specialElements(original, patch, mergeKey, path);
      merged = [...orig];
      for (const v of patchItems) {
        const m = asMap(v);
        if (!Object.hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
        const at = merged.findIndex((x) => isJsonObject(x) && Object.hasOwn(x, mergeKey) && x[mergeKey] === m[mergeKey]);
        if (at >= 0) merged[at] = this.mergeMap(asMap(merged[at] ?? null), m, path);
        else merged.push(this.fresh(m, path));
      }
    }
    const [inPatch, serverOnly] = partitionByPresence(merged, patchItems, mergeKey, kind);
    return normalizeElementOrder(inPatch, serverOnly, patchItems, orig, mergeKey, kind);
  }

  /** `$patch` items of a merge list: deletes by key, or a replace of the whole list. */
  private specialElements(original: JsonValue[], patch: JsonValue[], mergeKey: string, path: string): [JsonValue[], JsonValue[]] {
    const plain: JsonValue[] = [];
    let orig = original;
    let replace = false;
    for (const v of patch) {
      const m = asMap(v);
      if (!Object.hasOwn(m, directiveMarker)) {
        plain.push(m);
        continue;
      }
      const t = m[directiveMarker];
      if (t === 'delete') {
        if (!Object.hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
        orig = orig.filter((x) => mergeValueOf(x, mergeKey, 'map') !== m[mergeKey]);
      } else if (t === 'replace') {
        replace = true;
      } else if (t === 'merge') {
        throw patchError('merging lists cannot yet be specified in the patch');
      } else {
        throw errBadPatchType(t, m);
      }
    }
    return replace ? [plain.map((x) => this.fresh(x, path)), []] : [orig, plain];
  }

  /** `$setElementOrder/<list>`: merge that list now and order it as the directive says. */
  private applySetElementOrder(original: JsonObject, patch: JsonObject, path: string): void {
    for (const key of Object.keys(patch)) {
      if (!key.startsWith(setElementOrderPrefix)) continue;
      const setOrder = patch[key] ?? null;
      delete patch[key];
      if (!Array.isArray(setOrder)) throw errBadArgType('slice', setOrder);
      const listKey = extractKey(key, setElementOrderPrefix);
      const childPath = join(path, listKey);
      const inOriginal = Object.hasOwn(original, listKey);
      const inPatch = Object.hasOwn(patch, listKey);
      const originalList = inOriginal ? original[listKey] : [];
      const patchList = inPatch ? patch[listKey] : [];
      if (!Array.isArray(originalList)) throw errBadArgType('slice', originalList);
      if (!Array.isArray(patchList)) throw errBadArgType('slice', patchList);
      const meta = lookupMeta(this.schema, childPath);
      validateAgainstSetOrder(patchList, setOrder, meta.mergeKey);
      let merged: JsonValue[];
      if (!inOriginal && !inPatch) continue;
      if (!inPatch) merged = originalList;
      else if (!inOriginal) merged = this.fresh(patchList, childPath) as JsonValue[];
      else if (meta.strategy === 'merge') merged = this.mergeSlice(originalList, patchList, meta.mergeKey, childPath, false);
      else merged = this.fresh(patchList, childPath) as JsonValue[];
      const kind = sliceElementKind(originalList, patchList);
      const [ordered, serverOnly] = partitionByPresence(merged, setOrder, meta.mergeKey, kind);
      original[listKey] = normalizeElementOrder(ordered, serverOnly, setOrder, originalList, meta.mergeKey, kind);
      delete patch[listKey];
    }
  }
}

/** Applies a strategic merge patch to a copy of `doc`; `schema` gives the list merge keys. */
export function applyStrategicMergePatch(doc: JsonObject, patch: unknown, schema: SmpSchema = {}): JsonObject {
  if (patch === null) return cloneJson(doc);
  if (!isJsonObject(patch)) throw badRequest(`json: cannot unmarshal ${goJsonKind(patch)} into Go value of type map[string]interface {}`);
  return new Merger(schema).mergeMap(cloneJson(doc), cloneJson(patch), '');
}
