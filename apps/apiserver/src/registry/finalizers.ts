import type { InternalObject } from './resource-view.js';

/**
 * Deletion with finalizers, as the real registry does it: DELETE of an object that lists
 * finalizers only marks it (deletionTimestamp now, deletionGracePeriodSeconds 0) and it stays,
 * visible to clients and watchers, until an update removes its last finalizer, which deletes it.
 */

export const hasFinalizers = (obj: InternalObject): boolean => (obj.metadata.finalizers?.length ?? 0) > 0;

/**
 * Marks an object as being deleted; an object already marked keeps its marks. Marking bumps a
 * tracked generation (kube's markAsDeleting), so controllers comparing observedGeneration see it.
 */
export function markDeleting(obj: InternalObject, timestamp: string): void {
  const meta = obj.metadata;
  if (!meta.deletionTimestamp && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  obj.metadata.deletionTimestamp ??= timestamp;
  obj.metadata.deletionGracePeriodSeconds ??= 0;
}

/**
 * An update can never remove or change the deletion marks (kube's BeforeUpdate): the client may
 * leave them out; anything else it sends is then judged by update validation.
 */
export function keepDeletionMarks(obj: InternalObject, current: InternalObject): void {
  const [meta, old] = [obj.metadata, current.metadata];
  if (old.deletionTimestamp) meta.deletionTimestamp = old.deletionTimestamp;
  if (old.deletionGracePeriodSeconds !== undefined)
    meta.deletionGracePeriodSeconds ??= old.deletionGracePeriodSeconds;
}

/** An update that takes the last finalizer off an object being deleted also deletes it. */
export const finishesDeletion = (obj: InternalObject, current: InternalObject): boolean =>
  Boolean(current.metadata.deletionTimestamp) && !hasFinalizers(obj);
