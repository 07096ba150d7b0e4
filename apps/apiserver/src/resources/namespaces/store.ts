import { conflict, notFound } from '@keel/apimachinery';
import type { Namespace } from '@keel/coreapi';
import { GenericStore, type DeleteContext } from '../../registry/generic-store.js';
import {
  FOREGROUND_FINALIZER,
  ORPHAN_FINALIZER,
  type PropagationRequest,
} from '../../registry/gc-finalizers.js';

const NAMESPACES = { group: '', resource: 'namespaces' };

/** Kube's "Precondition failed" conflict of a namespace delete. */
function preconditionFailed(name: string, what: 'UID' | 'ResourceVersion', sent: string, actual: string) {
  return conflict(
    NAMESPACES,
    name,
    `Precondition failed: ${what} in precondition: ${sent}, ${what} in object meta: ${actual}`,
  );
}

/**
 * The namespace registry's own reading of a DELETE's propagation (not the generic one): the
 * request decides each of the collector's finalizers, and the legacy orphanDependents=false
 * asks for foreground deletion; a request that says nothing keeps what the namespace has.
 */
function namespaceFinalizers(ns: Namespace, req: PropagationRequest): void {
  const has = new Set(ns.metadata.finalizers ?? []);
  const orphan =
    req.orphanDependents ??
    (req.propagationPolicy !== undefined ? req.propagationPolicy === 'Orphan' : has.has(ORPHAN_FINALIZER));
  const foreground =
    req.orphanDependents !== undefined
      ? !req.orphanDependents
      : req.propagationPolicy !== undefined
        ? req.propagationPolicy === 'Foreground'
        : has.has(FOREGROUND_FINALIZER);
  if (orphan === has.has(ORPHAN_FINALIZER) && foreground === has.has(FOREGROUND_FINALIZER)) return;
  const next = (ns.metadata.finalizers ?? []).filter(
    (f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER,
  );
  if (orphan) next.push(ORPHAN_FINALIZER);
  if (foreground) next.push(FOREGROUND_FINALIZER);
  ns.metadata.finalizers = next;
}

/** A namespace's own finalizers (spec.finalizers) keep it until the namespace controller is done. */
export const heldBySpecFinalizers = (ns: Namespace): boolean => (ns.spec?.finalizers?.length ?? 0) > 0;

/**
 * The namespace registry's delete (kube's namespace REST Delete): the first DELETE only marks the
 * namespace (deletionTimestamp, phase Terminating) and answers with it; the namespace controller
 * then empties it and takes the `kubernetes` finalizer off through namespaces/finalize, which
 * deletes it. A DELETE of a finalized namespace deletes it as any object. The answer is always
 * the namespace itself, as the real server returns the deleted object for namespaces.
 */
export class NamespaceStore extends GenericStore<Namespace> {
  override async delete(
    _namespace: string,
    name: string,
    opts: DeleteContext,
  ): Promise<{ obj: Namespace; pending: boolean }> {
    await this.admitDelete('', name, opts);
    const current = await this.get('', name);
    const uid = current.metadata.uid ?? '';
    const pre = opts.preconditions;
    // Go pointers: a JSON null is "no precondition".
    if (typeof pre?.uid === 'string' && pre.uid !== uid) throw preconditionFailed(name, 'UID', pre.uid, uid);
    const rv = current.metadata.resourceVersion ?? '';
    if (typeof pre?.resourceVersion === 'string' && pre.resourceVersion !== rv)
      throw preconditionFailed(name, 'ResourceVersion', pre.resourceVersion, rv);
    if (!current.metadata.deletionTimestamp)
      return { obj: await this.markTerminating(current, opts), pending: true };
    if (heldBySpecFinalizers(current)) return { obj: current, pending: true };
    const { obj } = await this.deleteAdmitted('', name, opts);
    return { obj, pending: true };
  }

  private async markTerminating(read: Namespace, opts: DeleteContext): Promise<Namespace> {
    const name = read.metadata.name ?? '';
    const uid = read.metadata.uid ?? '';
    const rv = opts.preconditions?.resourceVersion;
    const timestamp = this.now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    try {
      return await this.storage.guaranteedUpdate<Namespace>(
        this.key('', name),
        (latest) => {
          if (!latest) throw notFound(NAMESPACES, name);
          const latestUid = latest.metadata.uid ?? '';
          if (latestUid !== uid) throw preconditionFailed(name, 'UID', uid, latestUid);
          const latestRv = latest.metadata.resourceVersion ?? '';
          if (typeof rv === 'string' && rv !== latestRv)
            throw preconditionFailed(name, 'ResourceVersion', rv, latestRv);
          latest.metadata.deletionTimestamp ??= timestamp;
          latest.status = { ...(latest.status ?? {}), phase: 'Terminating' };
          if (this.gcEnabled) namespaceFinalizers(latest, opts);
          delete latest.metadata.resourceVersion;
          return latest;
        },
        { dryRun: opts.dryRun },
      );
    } catch (err) {
      this.fail(err, name);
    }
  }
}
