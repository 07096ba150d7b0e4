import { stateKey, type CycleState } from '../../framework/cycle-state.js';
import type { FilterPlugin, PluginFactory, PreFilterPlugin } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod, Volume } from '../../framework/types.js';
import { NO_VOLUME_LISTERS, type VolumeListers } from '../../framework/volume-objects.js';
import { claimNotFound } from '../helper/volumes.js';

export const NAME = 'VolumeRestrictions';
export const ERR_REASON_DISK_CONFLICT = 'node(s) had no available disk';
export const ERR_REASON_RWOP_CONFLICT =
  'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';

interface State {
  /** Scheduled pods' references to the pod's ReadWriteOncePod claims (there can be one each). */
  readonly conflictingRefs: number;
}
const key = stateKey<State>('PreFilter' + NAME);

/** The in-tree sources that may not be mounted twice (kube's needsRestrictionsCheck). */
function restricted(v: Volume): boolean {
  return !!(v.gcePersistentDisk ?? v.awsElasticBlockStore ?? v.rbd ?? v.iscsi);
}

/** kube's isVolumeConflict: the same disk, read-write on either side (EBS: at all). */
function conflicts(v: Volume, existing: Pod): boolean {
  for (const e of existing.spec.volumes ?? []) {
    const [g, eg] = [v.gcePersistentDisk, e.gcePersistentDisk];
    if (g && eg && g.pdName === eg.pdName && !(g.readOnly && eg.readOnly)) return true;
    if (v.awsElasticBlockStore && e.awsElasticBlockStore) {
      if (v.awsElasticBlockStore.volumeID === e.awsElasticBlockStore.volumeID) return true;
    }
    const [i, ei] = [v.iscsi, e.iscsi];
    if (i && ei && i.iqn === ei.iqn && !(i.readOnly && ei.readOnly)) return true;
    const [r, er] = [v.rbd, e.rbd];
    if (r && er) {
      const monitors = new Set(r.monitors ?? []);
      const overlap = (er.monitors ?? []).some((m) => monitors.has(m));
      // The API server defaults the pool to "rbd"; compare as if it had.
      const samePool = (r.pool ?? 'rbd') === (er.pool ?? 'rbd');
      if (overlap && samePool && r.image === er.image && !(r.readOnly && er.readOnly)) return true;
    }
  }
  return false;
}

/**
 * kube's VolumeRestrictions: a GCE PD, EBS volume, iSCSI target or RBD image already mounted
 * read-write on the node keeps other pods using it off the node, and a ReadWriteOncePod claim
 * already used by a scheduled pod keeps the pod off every node.
 */
export class VolumeRestrictions implements PreFilterPlugin, FilterPlugin {
  readonly name = NAME;

  constructor(private readonly volumes: VolumeListers) {}

  preFilter(state: CycleState, pod: Pod): MaybeStatus {
    const ns = pod.metadata.namespace ?? '';
    const rwop = new Set<string>();
    for (const v of pod.spec.volumes ?? []) {
      const claim = v.persistentVolumeClaim?.claimName;
      if (claim === undefined) continue;
      const pvc = this.volumes.persistentVolumeClaim(ns, claim);
      if (!pvc) return Status.unresolvable(claimNotFound(claim));
      if (pvc.spec?.accessModes?.includes('ReadWriteOncePod')) rwop.add(claim);
    }
    const conflictingRefs = rwop.size === 0 ? 0 : countUsers(state, ns, rwop);
    if (!(pod.spec.volumes ?? []).some(restricted) && conflictingRefs === 0) return Status.skip();
    state.write(key, { conflictingRefs });
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    for (const v of pod.spec.volumes ?? []) {
      if (!restricted(v)) continue;
      for (const p of nodeInfo.pods.values()) {
        if (conflicts(v, p.pod)) return Status.unschedulable(ERR_REASON_DISK_CONFLICT);
      }
    }
    const s = state.read(key);
    if (!s) return Status.fromError(new Error(`cannot read "PreFilter${NAME}" from cycleState`));
    return s.conflictingRefs > 0 ? Status.unschedulable(ERR_REASON_RWOP_CONFLICT) : undefined;
  }
}

/** How many of the claims pods placed on nodes (bound or assumed) use (kube's IsPVCUsedByPods). */
function countUsers(state: CycleState, namespace: string, claims: ReadonlySet<string>): number {
  const used = new Set<string>();
  for (const info of state.snapshot?.nodeInfos ?? []) {
    for (const { pod } of info.pods.values()) {
      if ((pod.metadata.namespace ?? '') !== namespace) continue;
      for (const v of pod.spec.volumes ?? []) {
        const c = v.persistentVolumeClaim?.claimName;
        if (c !== undefined && claims.has(c)) used.add(c);
      }
    }
  }
  return used.size;
}

export const create: PluginFactory = (_args, handle) =>
  new VolumeRestrictions(handle.volumes ?? NO_VOLUME_LISTERS);
