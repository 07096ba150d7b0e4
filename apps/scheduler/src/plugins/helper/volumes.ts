/** What the volume plugins share: a pod's claims, a claim's class, a volume's node affinity. */
import { Quantity } from '../../framework/quantity.js';
import type { Node, Pod } from '../../framework/types.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../../framework/volume-objects.js';
import { nodeSelectorMatches } from './node-selector.js';

/** The deprecated annotation that still wins over `storageClassName` (kube's GetPersistentVolume*Class). */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

export interface PodClaim {
  readonly name: string;
  /** A generic ephemeral volume's claim, which must be owned by the pod. */
  readonly ephemeral: boolean;
}

/** The claims of the pod's PVC and generic ephemeral volumes, in volume order. */
export function podClaims(pod: Pod): PodClaim[] {
  const out: PodClaim[] = [];
  for (const v of pod.spec.volumes ?? []) {
    if (v.persistentVolumeClaim) out.push({ name: v.persistentVolumeClaim.claimName, ephemeral: false });
    else if (v.ephemeral) out.push({ name: `${pod.metadata.name ?? ''}-${v.name}`, ephemeral: true });
  }
  return out;
}

export function claimClass(pvc: PersistentVolumeClaim): string {
  return pvc.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? pvc.spec?.storageClassName ?? '';
}

export function volumeClass(pv: PersistentVolume): string {
  return pv.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? pv.spec?.storageClassName ?? '';
}

/** kube's lister NotFound text, which upstream puts in the status as is. */
export function claimNotFound(name: string): string {
  return `persistentvolumeclaim ${JSON.stringify(name)} not found`;
}

/** kube's ephemeral.VolumeIsForPod: undefined when the pod controls the claim. */
export function ephemeralClaimError(pod: Pod, pvc: PersistentVolumeClaim): string | undefined {
  const owned = (pvc.metadata.ownerReferences ?? []).some(
    (o) => o.controller === true && o.uid !== undefined && o.uid === pod.metadata.uid,
  );
  if (owned) return undefined;
  const ns = pvc.metadata.namespace ?? '';
  return `PVC ${ns}/${pvc.metadata.name} was not created for pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} (pod is not owner)`;
}

/** kube's CheckNodeAffinity: a volume without required node affinity fits every node. */
export function volumeFitsNode(pv: PersistentVolume, node: Node): boolean {
  const required = pv.spec?.nodeAffinity?.required;
  return !required || nodeSelectorMatches(required, node);
}

/** Bytes of `resources.requests.storage` (claims) or `capacity.storage` (volumes); 0 when unset or malformed. */
export function storageBytes(list: Readonly<Record<string, string | number>> | undefined): number {
  const q = list?.['storage'];
  return q === undefined ? 0 : (Quantity.tryParse(q)?.value() ?? 0);
}
