/** Whether a storage class can provision claims on a node (kube's checkVolumeProvisions). */
import { labelSelectorFromSpec } from '@keel/apimachinery';
import type { Node } from '../../framework/types.js';
import type { PersistentVolumeClaim, VolumeListers } from '../../framework/volume-objects.js';
import { claimClass, storageBytes } from '../helper/volumes.js';

/** The provisioner name of classes that cannot provision (local volumes). */
export const NO_PROVISIONER = 'kubernetes.io/no-provisioner';
export const ERR_REASON_NOT_ENOUGH_SPACE = 'node(s) did not have enough free storage';

const claimKey = (pvc: PersistentVolumeClaim) => `${pvc.metadata.namespace ?? ''}/${pvc.metadata.name}`;

/** kube's checkVolumeProvisions: whether the claims' classes can provision them on `node`. */
export function canProvision(
  listers: VolumeListers,
  claims: readonly PersistentVolumeClaim[],
  node: Node,
): 'yes' | 'no' | 'no space' {
  for (const pvc of claims) {
    const name = claimClass(pvc);
    if (name === '') throw new Error(`no class for claim ${JSON.stringify(claimKey(pvc))}`);
    const sc = listers.storageClass(name);
    if (!sc) throw new Error(`failed to find storage class ${JSON.stringify(name)}`);
    if (!sc.provisioner || sc.provisioner === NO_PROVISIONER) return 'no';
    const labels = node.metadata.labels ?? {};
    const terms = sc.allowedTopologies ?? [];
    const matches =
      terms.length === 0 ||
      terms.some((t) =>
        (t.matchLabelExpressions ?? []).every((e) => {
          const v = labels[e.key];
          return v !== undefined && e.values.includes(v);
        }),
      );
    if (!matches) return 'no';
    if (!hasEnoughCapacity(listers, sc.provisioner, sc.metadata.name, pvc, node)) return 'no space';
  }
  return 'yes';
}

/**
 * kube's hasEnoughCapacity: only for CSI drivers that opt in (`storageCapacity: true`), some
 * CSIStorageCapacity of the class whose node topology selects the node must hold the request
 * (its maximumVolumeSize, else its capacity).
 */
function hasEnoughCapacity(
  listers: VolumeListers,
  provisioner: string,
  className: string,
  pvc: PersistentVolumeClaim,
  node: Node,
): boolean {
  const requests = pvc.spec?.resources?.requests;
  if (requests?.['storage'] === undefined) return true;
  if (listers.csiDriver(provisioner)?.spec?.storageCapacity !== true) return true;
  const size = storageBytes(requests);
  const labels = node.metadata.labels ?? {};
  return listers.csiStorageCapacities().some((c) => {
    if (c.storageClassName !== className || !c.nodeTopology) return false;
    const limit = c.maximumVolumeSize ?? c.capacity;
    if (limit === undefined || storageBytes({ storage: limit }) < size) return false;
    return labelSelectorFromSpec(c.nodeTopology).matches(labels);
  });
}
