import type { PropagationPolicy } from '@keel/apimachinery';
import type { InternalObject } from './resource-view.js';

/**
 * The finalizers a DELETE adds for the garbage collector, as the real generic registry decides
 * them (deletionFinalizersForGarbageCollection): `orphan` asks the collector to take this
 * object's ownerReferences off its dependents first, `foregroundDeletion` to delete the
 * dependents that block it first. With the collector off none are ever added, since nothing
 * would take them off again.
 */

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/**
 * A resource's own default (kube's GarbageCollectionDeleteStrategy): `DeleteDependents` is the
 * background deletion every resource Keel serves has; `Unsupported` (Events) never gets the
 * collector's finalizers, whatever the request asks.
 */
export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

export interface GarbageCollectionOptions {
  /** --enable-garbage-collector. */
  readonly enabled: boolean;
  readonly defaultPolicy?: GarbageCollectionPolicy;
}

/** What a DELETE asked for (DeleteOptions.propagationPolicy and the legacy orphanDependents). */
export interface PropagationRequest {
  readonly propagationPolicy?: PropagationPolicy | undefined;
  readonly orphanDependents?: boolean | undefined;
}

/** shouldOrphanDependents: the request, then a finalizer already there, then the default. */
function shouldOrphan(
  obj: InternalObject,
  req: PropagationRequest,
  policy: GarbageCollectionPolicy,
): boolean {
  if (policy === 'Unsupported') return false;
  if (req.orphanDependents !== undefined) return req.orphanDependents;
  if (req.propagationPolicy !== undefined) return req.propagationPolicy === 'Orphan';
  for (const f of obj.metadata.finalizers ?? []) {
    if (f === ORPHAN_FINALIZER) return true;
    if (f === FOREGROUND_FINALIZER) return false;
  }
  return policy === 'OrphanDependents';
}

/** shouldDeleteDependents: only an explicit Foreground or a finalizer already there. */
function shouldDeleteDependents(
  obj: InternalObject,
  req: PropagationRequest,
  policy: GarbageCollectionPolicy,
): boolean {
  if (policy === 'Unsupported') return false;
  // orphanDependents=false means background here (the namespace registry reads it otherwise).
  if (req.orphanDependents !== undefined) return false;
  if (req.propagationPolicy !== undefined) return req.propagationPolicy === 'Foreground';
  for (const f of obj.metadata.finalizers ?? []) {
    if (f === FOREGROUND_FINALIZER) return true;
    if (f === ORPHAN_FINALIZER) return false;
  }
  return false;
}

/**
 * The object's finalizers after a DELETE with `req`, and whether they differ (as sets) from
 * what it has; unchanged when the collector is off.
 */
export function deletionFinalizers(
  obj: InternalObject,
  req: PropagationRequest,
  gc: GarbageCollectionOptions,
): { changed: boolean; finalizers: string[] } {
  const current = obj.metadata.finalizers ?? [];
  if (!gc.enabled) return { changed: false, finalizers: [...current] };
  const policy = gc.defaultPolicy ?? 'DeleteDependents';
  const next = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (shouldOrphan(obj, req, policy)) next.push(ORPHAN_FINALIZER);
  if (shouldDeleteDependents(obj, req, policy)) next.push(FOREGROUND_FINALIZER);
  const before = new Set(current);
  const after = new Set(next);
  const same = before.size === after.size && [...before].every((f) => after.has(f));
  return same ? { changed: false, finalizers: [...current] } : { changed: true, finalizers: next };
}
