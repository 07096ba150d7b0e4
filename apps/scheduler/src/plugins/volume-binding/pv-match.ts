/** kube's FindMatchingVolume (component-helpers storage/volume), on the scheduler's path. */
import { labelSelectorFromSpec } from '@keel/apimachinery';
import type { Node } from '../../framework/types.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../../framework/volume-objects.js';
import { claimClass, storageBytes, volumeClass, volumeFitsNode } from '../helper/volumes.js';

export function isVolumeBoundToClaim(pv: PersistentVolume, pvc: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== pvc.metadata.name || (ref.namespace ?? '') !== (pvc.metadata.namespace ?? ''))
    return false;
  return !ref.uid || ref.uid === pvc.metadata.uid;
}

/**
 * Whether nothing claims the volume yet. Upstream wants phase `Available`, which its PV controller
 * sets as soon as a volume is created; Keel has no such controller, so a new volume's `Pending`
 * (or missing) phase counts as available too.
 */
function available(pv: PersistentVolume): boolean {
  const phase = pv.status?.phase;
  return phase === 'Available' || phase === 'Pending' || phase === undefined;
}

/**
 * The volume for `pvc` on `node`: one pre-bound to the claim (if its node affinity fits), else
 * the smallest available one of the claim's class, mode and access modes whose capacity covers the
 * request, whose labels match the claim's selector and whose node affinity fits. `excluded` holds
 * volumes already chosen for the pod's other claims.
 */
export function findMatchingVolume(
  pvc: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  node: Node,
  excluded: ReadonlySet<string>,
): PersistentVolume | undefined {
  const requested = storageBytes(pvc.spec?.resources?.requests);
  const requestedClass = claimClass(pvc);
  const selector = pvc.spec?.selector ? labelSelectorFromSpec(pvc.spec.selector) : undefined;
  const mode = pvc.spec?.volumeMode ?? 'Filesystem';
  const wantModes = pvc.spec?.accessModes ?? [];
  let smallest: PersistentVolume | undefined;
  let smallestBytes = 0;
  for (const pv of volumes) {
    if (excluded.has(pv.metadata.name)) continue;
    if (pv.spec?.claimRef && !isVolumeBoundToClaim(pv, pvc)) continue;
    const bytes = storageBytes(pv.spec?.capacity);
    if (bytes < requested) continue;
    if ((pv.spec?.volumeMode ?? 'Filesystem') !== mode) continue;
    if (pv.metadata.deletionTimestamp) continue;
    const fits = volumeFitsNode(pv, node);
    if (isVolumeBoundToClaim(pv, pvc)) return fits ? pv : undefined;
    if (!available(pv)) continue;
    if (selector && !selector.matches(pv.metadata.labels ?? {})) continue;
    if (volumeClass(pv) !== requestedClass || !fits) continue;
    const modes = new Set(pv.spec?.accessModes ?? []);
    if (!wantModes.every((m) => modes.has(m))) continue;
    if (!smallest || smallestBytes > bytes) {
      smallest = pv;
      smallestBytes = bytes;
    }
  }
  return smallest;
}
