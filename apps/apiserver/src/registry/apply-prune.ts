import type { JsonObject } from '@keel/apimachinery';
import { asSet, fieldSet, isEmpty, removeFields, subtract, union, type Wire } from './field-set.js';
import { managerKey } from './managed-fields.js';
import type { ManagedFieldsEntry } from './resource-view.js';

/**
 * What an apply leaves of the merged object (structured-merge-diff's prune): fields the manager
 * applied last time but no longer does are removed, unless another manager owns them too.
 * Only entries recorded in the request's version are compared; an entry of another version
 * names fields differently and keeps nothing here.
 */
export function pruneApplied(
  merged: Wire,
  entries: readonly ManagedFieldsEntry[],
  w: { manager: string; apiVersion: string; config: Wire },
): Wire {
  const selfKey = managerKey({ manager: w.manager, operation: 'Apply' });
  const last = entries.find((e) => managerKey(e) === selfKey);
  if (!last || (last.apiVersion ?? '') !== w.apiVersion) return merged;
  const dropped = subtract(asSet(last.fieldsV1), fieldSet(w.config));
  if (isEmpty(dropped)) return merged;
  const ownedElsewhere = entries
    .filter((e) => e !== last && (e.apiVersion ?? '') === w.apiVersion)
    .reduce<JsonObject>((acc, e) => union(acc, asSet(e.fieldsV1)), {});
  const remove = subtract(dropped, ownedElsewhere);
  return isEmpty(remove) ? merged : removeFields(merged, remove);
}
