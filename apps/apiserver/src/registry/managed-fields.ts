import type { JsonObject } from '@keel/apimachinery';
import type { InternalObject, ManagedFieldsEntry } from './resource-view.js';

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

type Wire = Record<string, unknown>;

function isPlainObject(v: unknown): v is Wire {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const isEmpty = (o: object): boolean => Object.keys(o).length === 0;

/** The FieldsV1 set of a wire object: `f:<name>` for every field set, recursing into maps. */
export function fieldSet(obj: Wire, top = true): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) {
    if (top && (k === 'apiVersion' || k === 'kind')) continue;
    if (v === null || v === undefined) continue;
    if (top && k === 'metadata' && typeof v === 'object') {
      const meta = Object.fromEntries(Object.entries(v).filter(([mk]) => !SERVER_OWNED_META.has(mk)));
      const set = fieldSet(meta, false);
      if (!isEmpty(set)) out['f:metadata'] = set;
      continue;
    }
    if (isPlainObject(v)) {
      const nested = fieldSet(v, false);
      out[`f:${k}`] = !isEmpty(nested) ? nested : {};
    } else {
      out[`f:${k}`] = {};
    }
  }
  return out;
}

/** The parts of `next` that `prev` does not have with the same value (what an update changed). */
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

function asSet(v: unknown): JsonObject {
  return isPlainObject(v) ? (v as JsonObject) : {};
}

function union(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? union(asSet(out[k]), asSet(v)) : v;
  return out;
}

/** `set` restricted to the fields `keep` has; a field whose owned children are all gone goes too. */
function intersect(set: JsonObject, keep: JsonObject): JsonObject {
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

/** `set` without the fields of `drop` (leaves of `drop` remove whole subtrees). */
function subtract(set: JsonObject, drop: JsonObject): JsonObject {
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

export interface ManagerWrite {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  /** The request version, e.g. `events.k8s.io/v1`. */
  readonly apiVersion: string;
  readonly now: Date;
  /** What the request set, as far as the server kept it: owned on create and by an Apply. */
  readonly sent: Wire;
  /** The object's wire form before (undefined on create) and after the write. */
  readonly before: Wire | undefined;
  readonly after: Wire;
}

/**
 * Records a write in managedFields, as the field manager does: an Update makes its manager own
 * what it set or changed (taken from other managers' Update entries), added to what it owned
 * before; an Apply owns exactly its configuration. Fields the object no longer has are owned by
 * no one, and entries left empty are dropped. Apply conflicts are not detected.
 */
export function recordManager(obj: InternalObject, old: InternalObject | undefined, w: ManagerWrite): void {
  const present = fieldSet(w.after);
  const entries = old?.metadata.managedFields ?? [];
  const same = (e: ManagedFieldsEntry) => e.manager === w.manager && e.operation === w.operation;
  let owned: JsonObject;
  let taken: JsonObject = {};
  if (w.operation === 'Apply') {
    owned = fieldSet(w.sent);
  } else {
    taken = fieldSet(w.before ? changedPart(w.before, w.after) : w.sent);
    owned = union(asSet(entries.find(same)?.fieldsV1), taken);
  }
  const others = entries
    .filter((e) => !same(e))
    .map((e) => {
      const rest = intersect(asSet(e.fieldsV1), present);
      return { ...e, fieldsV1: e.operation === 'Update' ? subtract(rest, taken) : rest };
    })
    .filter((e) => !isEmpty(e.fieldsV1));
  const entry: ManagedFieldsEntry = {
    manager: w.manager,
    operation: w.operation,
    apiVersion: w.apiVersion,
    time: w.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    fieldsType: 'FieldsV1',
    fieldsV1: intersect(owned, present),
  };
  obj.metadata.managedFields = isEmpty(asSet(entry.fieldsV1)) ? others : [...others, entry];
}
