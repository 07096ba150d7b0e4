/**
 * Field sets in the FieldsV1 form managedFields carries (`{"f:metadata":{"f:labels":{"f:a":{}}}}`):
 * an empty object is a leaf the set owns, a non-empty one holds owned fields below it. These are
 * the set operations the field manager (structured-merge-diff) needs, over wire objects whose
 * lists are atomic (Events have no keyed lists outside metadata).
 */
import { compareGoStrings, type JsonObject } from '@keel/apimachinery';

export type Wire = Record<string, unknown>;

// Fields the server owns: they never appear in a manager's field set.
const SERVER_OWNED_META = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'managedFields',
  'generation',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
]);

export function isPlainObject(v: unknown): v is Wire {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** No own enumerable keys (Object.keys(o).length === 0 without building the array). */
export function isEmpty(o: object): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return false;
  return true;
}

export function asSet(v: unknown): JsonObject {
  return isPlainObject(v) ? (v as JsonObject) : {};
}

/** The FieldsV1 set of a wire object: `f:<name>` for every field set, recursing into maps. */
export function fieldSet(obj: Wire, top = true): JsonObject {
  return fieldSetOf(obj, top, undefined);
}

// Keys and values read in place (no entry arrays, no filtered copy of metadata): this runs over
// every object a write records in managedFields.
function fieldSetOf(obj: Wire, top: boolean, skip: ReadonlySet<string> | undefined): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (top && (k === 'apiVersion' || k === 'kind')) continue;
    if (skip?.has(k)) continue;
    if (v === null || v === undefined) continue;
    if (top && k === 'metadata' && typeof v === 'object') {
      const set = fieldSetOf(v as Wire, false, SERVER_OWNED_META);
      if (!isEmpty(set)) out['f:metadata'] = set;
      continue;
    }
    if (isPlainObject(v)) {
      const nested = fieldSetOf(v, false, undefined);
      out[`f:${k}`] = !isEmpty(nested) ? nested : {};
    } else {
      out[`f:${k}`] = {};
    }
  }
  return out;
}

/** The parts of `next` that `prev` does not have with the same value (what a write added or modified). */
export function changedPart(prev: Wire, next: Wire): Wire {
  const out: Wire = {};
  for (const [k, v] of Object.entries(next)) {
    const p = prev[k];
    if (isPlainObject(v) && isPlainObject(p)) {
      const sub = changedPart(p, v);
      if (!isEmpty(sub)) out[k] = sub;
    } else if (!Object.hasOwn(prev, k) || JSON.stringify(p) !== JSON.stringify(v)) {
      out[k] = v;
    }
  }
  return out;
}

export function union(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? union(asSet(out[k]), asSet(v)) : v;
  return out;
}

/** `set` restricted to the fields `keep` has; a field whose owned children are all gone goes too. */
export function intersect(set: JsonObject, keep: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(set)) {
    if (!(k in keep)) continue;
    const owned = asSet(v);
    if (isEmpty(owned)) {
      out[k] = {};
      continue;
    }
    const sub = intersect(owned, asSet(keep[k]));
    if (!isEmpty(sub)) out[k] = sub;
  }
  return out;
}

/** Whether fieldSet would give `obj` (not a whole object) any field, `skip` aside. */
function hasManagedField(obj: Wire, skip: ReadonlySet<string>): boolean {
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (!skip.has(k) && v !== null && v !== undefined) return true;
  }
  return false;
}

/**
 * `intersect(set, fieldSet(obj))` for a set of `f:` keys (as fieldSet makes them) without
 * building the field set of `obj`: `set` restricted to the fields the wire object has (`top`:
 * `obj` is a whole object, whose apiVersion, kind and server-owned metadata no set has).
 */
export function intersectWire(set: JsonObject, obj: Wire, top = true): JsonObject {
  return intersectWireOf(set, obj, top, undefined);
}

function intersectWireOf(
  set: JsonObject,
  obj: Wire,
  top: boolean,
  skip: ReadonlySet<string> | undefined,
): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(set)) {
    // Every key of a FieldsV1 set made by fieldSet is `f:<name>`; others are in no wire object.
    if (!k.startsWith('f:')) continue;
    const name = k.slice(2);
    if (!Object.hasOwn(obj, name)) continue;
    const v = obj[name];
    if (top && (name === 'apiVersion' || name === 'kind')) continue;
    if (skip?.has(name)) continue;
    if (v === null || v === undefined) continue;
    const owned = asSet(set[k]);
    if (top && name === 'metadata' && typeof v === 'object') {
      // fieldSet leaves f:metadata out when none of its fields is the managers'.
      if (isEmpty(owned)) {
        if (hasManagedField(v as Wire, SERVER_OWNED_META)) out[k] = {};
        continue;
      }
      const sub = intersectWireOf(owned, v as Wire, false, SERVER_OWNED_META);
      if (!isEmpty(sub)) out[k] = sub;
      continue;
    }
    if (isEmpty(owned)) {
      out[k] = {};
      continue;
    }
    // Below a scalar or a list the object's set is a leaf: nothing owned under it is kept.
    if (!isPlainObject(v)) continue;
    const sub = intersectWireOf(owned, v, false, undefined);
    if (!isEmpty(sub)) out[k] = sub;
  }
  return out;
}

/** `set` without the fields of `drop` (leaves of `drop` remove whole subtrees). */
export function subtract(set: JsonObject, drop: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(set)) {
    if (!(k in drop)) {
      out[k] = v;
      continue;
    }
    const d = asSet(drop[k]);
    if (isEmpty(d)) continue;
    const owned = asSet(v);
    if (isEmpty(owned)) {
      out[k] = v;
      continue;
    }
    const sub = subtract(owned, d);
    if (!isEmpty(sub)) out[k] = sub;
  }
  return out;
}

/** The leaves both sets own at the same path (structured-merge-diff's Set.Intersection). */
export function commonLeaves(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(a)) {
    if (!(k in b)) continue;
    const x = asSet(v);
    const y = asSet(b[k]);
    if (isEmpty(x) && isEmpty(y)) out[k] = {};
    else if (!isEmpty(x) && !isEmpty(y)) {
      const sub = commonLeaves(x, y);
      if (!isEmpty(sub)) out[k] = sub;
    }
  }
  return out;
}

/** `f:name` prints as `.name`; other FieldsV1 keys (`k:`, `v:`, `i:`) as smd prints them, roughly. */
function pathElement(key: string): string {
  if (key.startsWith('f:')) return `.${key.slice(2)}`;
  if (key.startsWith('i:')) return `[${key.slice(2)}]`;
  if (key.startsWith('v:')) return `[=${key.slice(2)}]`;
  if (key.startsWith('k:')) return `[${key.slice(2)}]`;
  return key;
}

/**
 * The leaf paths of a set in structured-merge-diff's order (Set.Iterate): at each level the
 * members (leaves) sorted by name first, then the children's subtrees, sorted by name.
 */
export function leafPaths(set: JsonObject, prefix = ''): string[] {
  const keys = Object.keys(set)
    .filter((k) => k !== '.')
    .sort(compareGoStrings);
  const leaves = keys.filter((k) => isEmpty(asSet(set[k])));
  const children = keys.filter((k) => !isEmpty(asSet(set[k])));
  return [
    ...leaves.map((k) => prefix + pathElement(k)),
    ...children.flatMap((k) => leafPaths(asSet(set[k]), prefix + pathElement(k))),
  ];
}

/** Removes the leaves of `drop` from a wire object; maps left empty by that go too. */
export function removeFields(obj: Wire, drop: JsonObject): Wire {
  const out: Wire = { ...obj };
  for (const [k, d] of Object.entries(drop)) {
    if (!k.startsWith('f:')) continue;
    const name = k.slice(2);
    if (!Object.hasOwn(out, name)) continue;
    const sub = asSet(d);
    const v = out[name];
    if (isEmpty(sub)) {
      delete out[name];
    } else if (isPlainObject(v)) {
      const pruned = removeFields(v, sub);
      if (isEmpty(pruned) && !isEmpty(v)) delete out[name];
      else out[name] = pruned;
    }
  }
  return out;
}
