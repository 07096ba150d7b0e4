import { createHash } from 'node:crypto';
import type { CycleState } from '../../framework/cycle-state.js';
import type { FilterPlugin, PluginFactory, PreFilterPlugin } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Quantity } from '../../framework/quantity.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import {
  NO_VOLUME_LISTERS,
  type CSINode,
  type PersistentVolumeClaim,
  type VolumeListers,
} from '../../framework/volume-objects.js';
import { claimClass, claimNotFound, ephemeralClaimError, podClaims } from '../helper/volumes.js';

export const NAME = 'NodeVolumeLimits';
export const ERR_REASON_MAX_VOLUME_COUNT = 'node(s) exceed max volume count';

const CSI_ATTACH_LIMIT_PREFIX = 'attachable-volumes-csi-';

/**
 * kube's GetCSIAttachLimitKey: the node allocatable resource holding a driver's limit; names too
 * long for a resource name keep 23 characters of the driver and 16 hex digits of its SHA-1.
 */
export function csiAttachLimitKey(driver: string): string {
  if (CSI_ATTACH_LIMIT_PREFIX.length + driver.length < 63) return CSI_ATTACH_LIMIT_PREFIX + driver;
  const hash = createHash('sha1').update(driver).digest('hex').slice(0, 16);
  return CSI_ATTACH_LIMIT_PREFIX + driver.slice(0, 23) + hash;
}

/**
 * kube's getVolumeLimits, per driver the pod uses: the node's allocatable
 * `attachable-volumes-csi-<driver>` (the older place), overridden by the CSINode's count.
 */
function volumeLimits(
  nodeInfo: NodeInfo,
  csiNode: CSINode | undefined,
  drivers: ReadonlyMap<string, string>,
): Map<string, number> {
  const limits = new Map<string, number>();
  const allocatable = nodeInfo.node?.status?.allocatable ?? {};
  for (const driver of new Set(drivers.values())) {
    const q = allocatable[csiAttachLimitKey(driver)];
    const n = q === undefined ? undefined : Quantity.tryParse(q)?.value();
    if (n !== undefined) limits.set(driver, n);
  }
  for (const d of csiNode?.spec?.drivers ?? []) {
    const count = d.allocatable?.count;
    if (typeof count === 'number') limits.set(d.name, count);
  }
  return limits;
}

/** Thrown for the incoming pod's missing claim: the pod cannot run until it exists. */
class ClaimMissing extends Error {}

/**
 * kube's CSILimits: the pod's CSI volumes plus those already attached for the node's pods, counted
 * once per `driver/volumeHandle`, must stay within each driver's `allocatable.count` in the node's
 * CSINode (or the node's allocatable `attachable-volumes-csi-<driver>`). Unbound claims count under their class's provisioner. In-tree volumes are not
 * translated to CSI (Keel runs no CSI migration), so they are not counted.
 */
export class NodeVolumeLimits implements PreFilterPlugin, FilterPlugin {
  readonly name = NAME;

  constructor(private readonly volumes: VolumeListers) {}

  preFilter(_state: CycleState, pod: Pod): MaybeStatus {
    return podClaims(pod).length === 0 ? Status.skip() : undefined;
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    if ((pod.spec.volumes ?? []).length === 0) return undefined;
    const csiNode = this.volumes.csiNode(nodeInfo.name);
    const incoming = new Map<string, string>();
    try {
      this.attachable(pod, csiNode, true, incoming);
    } catch (err) {
      if (err instanceof ClaimMissing) return Status.unresolvable(err.message);
      throw err;
    }
    if (incoming.size === 0) return undefined;
    const limits = volumeLimits(nodeInfo, csiNode, incoming);
    if (limits.size === 0) return undefined;
    const attached = new Map<string, string>();
    for (const { pod: existing } of nodeInfo.pods.values())
      this.attachable(existing, csiNode, false, attached);
    const attachedCount = new Map<string, number>();
    for (const [unique, driver] of attached) {
      incoming.delete(unique);
      attachedCount.set(driver, (attachedCount.get(driver) ?? 0) + 1);
    }
    const newCount = new Map<string, number>();
    for (const driver of incoming.values()) newCount.set(driver, (newCount.get(driver) ?? 0) + 1);
    for (const [driver, n] of newCount) {
      const max = limits.get(driver);
      if (max !== undefined && (attachedCount.get(driver) ?? 0) + n > max)
        return Status.unschedulable(ERR_REASON_MAX_VOLUME_COUNT);
    }
    return undefined;
  }

  /** Adds the pod's CSI volumes to `out` as `driver/handle` → driver (kube's filterAttachableVolumes). */
  private attachable(
    pod: Pod,
    csiNode: CSINode | undefined,
    newPod: boolean,
    out: Map<string, string>,
  ): void {
    const ns = pod.metadata.namespace ?? '';
    for (const claim of podClaims(pod)) {
      if (claim.name === '') throw new Error('PersistentVolumeClaim had no name');
      const pvc = this.volumes.persistentVolumeClaim(ns, claim.name);
      if (!pvc) {
        // A running pod's missing claim says nothing about what is attached; skip it.
        if (!newPod) continue;
        const msg = claimNotFound(claim.name);
        throw new ClaimMissing(claim.ephemeral ? `looking up PVC ${ns}/${claim.name}: ${msg}` : msg);
      }
      if (claim.ephemeral) {
        const wrong = ephemeralClaimError(pod, pvc);
        if (wrong) throw new Error(wrong);
      }
      const info = this.driverInfo(csiNode, pvc);
      if (info) out.set(`${info.driver}/${info.handle}`, info.driver);
    }
  }

  private driverInfo(
    _csiNode: CSINode | undefined,
    pvc: PersistentVolumeClaim,
  ): { driver: string; handle: string } | undefined {
    const pvName = pvc.spec?.volumeName ?? '';
    const pv = pvName === '' ? undefined : this.volumes.persistentVolume(pvName);
    if (!pv) {
      // Not bound yet (or the volume is gone): it will be provisioned by the class's driver.
      const sc = this.volumes.storageClass(claimClass(pvc));
      const driver = sc?.provisioner ?? '';
      if (driver === '') return undefined;
      return { driver, handle: `${pvc.metadata.namespace ?? ''}-${pvc.metadata.name}` };
    }
    const csi = pv.spec?.csi;
    if (!csi?.driver || !csi.volumeHandle) return undefined;
    return { driver: csi.driver, handle: csi.volumeHandle };
  }
}

export const create: PluginFactory = (_args, handle) =>
  new NodeVolumeLimits(handle.volumes ?? NO_VOLUME_LISTERS);
