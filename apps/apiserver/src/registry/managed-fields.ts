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

/** The FieldsV1 set of a wire object: `f:<name>` for every field set, recursing into maps. */
export function fieldSet(obj: Record<string, unknown>, top = true): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) {
    if (top && (k === 'apiVersion' || k === 'kind')) continue;
    if (v === null || v === undefined) continue;
    if (top && k === 'metadata' && typeof v === 'object') {
      const meta = Object.fromEntries(Object.entries(v).filter(([mk]) => !SERVER_OWNED_META.has(mk)));
      const set = fieldSet(meta, false);
      if (Object.keys(set).length > 0) out['f:metadata'] = set;
      continue;
    }
    if (typeof v === 'object' && !Array.isArray(v)) {
      const nested = fieldSet(v as Record<string, unknown>, false);
      out[`f:${k}`] = Object.keys(nested).length > 0 ? nested : {};
    } else {
      out[`f:${k}`] = {};
    }
  }
  return out;
}

/**
 * Records that `manager` wrote the fields of `wire` (operation Update), replacing its previous
 * entry; other managers' entries stay. Full server-side apply ownership comes with apply patches.
 */
export function recordManager(
  obj: InternalObject,
  old: InternalObject | undefined,
  wire: Record<string, unknown>,
  manager: string,
  apiVersion: string,
  now: Date,
): void {
  const others = (old?.metadata.managedFields ?? []).filter(
    (e) => !(e.manager === manager && e.operation === 'Update'),
  );
  const entry: ManagedFieldsEntry = {
    manager,
    operation: 'Update',
    apiVersion,
    time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    fieldsType: 'FieldsV1',
    fieldsV1: fieldSet(wire),
  };
  obj.metadata.managedFields = [...others, entry];
}
