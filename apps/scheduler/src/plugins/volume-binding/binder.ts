/**
 * kube's volume binder (volumebinding/binder.go) over the scheduler's informer caches: sorts a
 * pod's claims, finds volumes for the unbound WaitForFirstConsumer claims on a node, remembers
 * what it chose until the API shows it (the assume cache), writes the bindings and waits for them.
 */
import type { Node, Pod } from '../../framework/types.js';
import type {
  ObjectReference,
  PersistentVolume,
  PersistentVolumeClaim,
  VolumeListers,
  VolumeWriter,
} from '../../framework/volume-objects.js';
import {
  claimClass,
  claimNotFound,
  ephemeralClaimError,
  podClaims,
  storageBytes,
  volumeClass,
  volumeFitsNode,
} from '../helper/volumes.js';
import { findMatchingVolume } from './pv-match.js';
import { canProvision, ERR_REASON_NOT_ENOUGH_SPACE } from './provisioning.js';

export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';

export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const ERR_REASON_PV_NOT_EXIST =
  'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';

export interface PodVolumeClaims {
  readonly bound: readonly PersistentVolumeClaim[];
  readonly unboundDelayBinding: readonly PersistentVolumeClaim[];
  readonly unboundImmediate: readonly PersistentVolumeClaim[];
  /** The volumes of each unbound delay-binding claim's class, listed once per cycle. */
  readonly volumesByClass: ReadonlyMap<string, readonly PersistentVolume[]>;
}

export interface StaticBinding {
  readonly pv: PersistentVolume;
  readonly pvc: PersistentVolumeClaim;
}

/** What binding the pod's claims on one node takes. */
export interface PodVolumes {
  readonly staticBindings: readonly StaticBinding[];
  /** Claims to provision on the node (they get the selected-node annotation). */
  readonly dynamicProvisions: readonly PersistentVolumeClaim[];
}

export const claimKey = (pvc: PersistentVolumeClaim) =>
  `${pvc.metadata.namespace ?? ''}/${pvc.metadata.name}`;

/** A claim is bound once the PV controller finished: volumeName plus the bind-completed annotation. */
export function claimFullyBound(pvc: PersistentVolumeClaim): boolean {
  return !!pvc.spec?.volumeName && Object.hasOwn(pvc.metadata.annotations ?? {}, ANN_BIND_COMPLETED);
}

function claimRef(pvc: PersistentVolumeClaim): ObjectReference {
  const m = pvc.metadata;
  return {
    kind: 'PersistentVolumeClaim',
    apiVersion: 'v1',
    name: m.name,
    ...(m.namespace ? { namespace: m.namespace } : {}),
    ...(m.uid ? { uid: m.uid } : {}),
    ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * The phases are the PV controller's to write, and the bootstrap RBAC role a scheduler runs with
 * (system:volume-scheduler) does not grant the status subresources: without them the binding
 * itself (claimRef, volumeName, bind-completed) is still complete, only the phases stay behind.
 */
async function unlessForbidden(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (err) {
    if ((err as { code?: unknown } | undefined)?.code !== 403) throw err;
  }
}

export class VolumeBinder {
  /** Volumes chosen for a claim whose claimRef the informer does not show yet. */
  private readonly assumedClaimRefs = new Map<string, ObjectReference>();
  /** Claims given a node to provision on, until the informer shows the annotation. */
  private readonly assumedSelectedNode = new Map<string, string>();

  constructor(
    private readonly listers: VolumeListers,
    private readonly writer: VolumeWriter,
    readonly bindTimeoutMs: number,
    /** How often PreBind looks at the claims again (kube polls every second). */
    private readonly pollMs = 1000,
  ) {}

  /** The claim as the scheduler sees it: the informer's, with an assumed selected node. */
  private claim(namespace: string, name: string): PersistentVolumeClaim | undefined {
    const pvc = this.listers.persistentVolumeClaim(namespace, name);
    if (!pvc) return undefined;
    const key = `${namespace}/${name}`;
    const node = this.assumedSelectedNode.get(key);
    if (node === undefined) return pvc;
    // The informer caught up: the assumption has done its job.
    if (pvc.metadata.annotations?.[ANN_SELECTED_NODE] !== undefined) {
      this.assumedSelectedNode.delete(key);
      return pvc;
    }
    return {
      ...pvc,
      metadata: { ...pvc.metadata, annotations: { ...pvc.metadata.annotations, [ANN_SELECTED_NODE]: node } },
    };
  }

  private volume(pv: PersistentVolume): PersistentVolume {
    const ref = this.assumedClaimRefs.get(pv.metadata.name);
    if (!ref) return pv;
    // The informer caught up (or someone else bound it): the assumption has done its job.
    if (pv.spec?.claimRef) {
      this.assumedClaimRefs.delete(pv.metadata.name);
      return pv;
    }
    return { ...pv, spec: { ...pv.spec, claimRef: ref } };
  }

  /**
   * kube's podHasPVCs: whether the pod has claims, or the error (a missing, lost or deleted claim,
   * an ephemeral claim not made for the pod) that makes it unschedulable.
   */
  checkClaims(pod: Pod): { hasClaims: boolean; error?: string } {
    const ns = pod.metadata.namespace ?? '';
    const claims = podClaims(pod);
    for (const c of claims) {
      const pvc = this.listers.persistentVolumeClaim(ns, c.name);
      if (!pvc) {
        const error = c.ephemeral
          ? `waiting for ephemeral volume controller to create the persistentvolumeclaim ${JSON.stringify(c.name)}`
          : claimNotFound(c.name);
        return { hasClaims: true, error };
      }
      if (pvc.status?.phase === 'Lost') {
        const error = `persistentvolumeclaim ${JSON.stringify(c.name)} bound to non-existent persistentvolume ${JSON.stringify(pvc.spec?.volumeName ?? '')}`;
        return { hasClaims: true, error };
      }
      if (pvc.metadata.deletionTimestamp)
        return { hasClaims: true, error: `persistentvolumeclaim ${JSON.stringify(c.name)} is being deleted` };
      if (c.ephemeral) {
        const error = ephemeralClaimError(pod, pvc);
        if (error) return { hasClaims: true, error };
      }
    }
    return { hasClaims: claims.length > 0 };
  }

  /** kube's GetPodVolumeClaims. Throws for a class without a binding mode. */
  podVolumeClaims(pod: Pod): PodVolumeClaims {
    const ns = pod.metadata.namespace ?? '';
    const bound: PersistentVolumeClaim[] = [];
    const unboundDelayBinding: PersistentVolumeClaim[] = [];
    const unboundImmediate: PersistentVolumeClaim[] = [];
    for (const c of podClaims(pod)) {
      const pvc = this.claim(ns, c.name);
      if (!pvc) throw new Error(claimNotFound(c.name));
      if (claimFullyBound(pvc)) bound.push(pvc);
      // A claim pre-bound by volumeName waits for the PV controller, as an Immediate one does.
      else if (this.delayBinding(pvc) && !pvc.spec?.volumeName) unboundDelayBinding.push(pvc);
      else unboundImmediate.push(pvc);
    }
    const volumesByClass = new Map<string, PersistentVolume[]>();
    for (const pvc of unboundDelayBinding) volumesByClass.set(claimClass(pvc), []);
    if (volumesByClass.size > 0) {
      for (const pv of this.listers.persistentVolumes()) {
        volumesByClass.get(volumeClass(pv))?.push(this.volume(pv));
      }
    }
    return { bound, unboundDelayBinding, unboundImmediate, volumesByClass };
  }

  /** kube's IsDelayBindingMode: a missing class binds immediately. */
  private delayBinding(pvc: PersistentVolumeClaim): boolean {
    const name = claimClass(pvc);
    if (name === '') return false;
    const sc = this.listers.storageClass(name);
    if (!sc) return false;
    if (sc.volumeBindingMode === undefined)
      throw new Error(`VolumeBindingMode not set for StorageClass ${JSON.stringify(name)}`);
    return sc.volumeBindingMode === 'WaitForFirstConsumer';
  }

  /**
   * kube's FindPodVolumes: the bindings for `node`, or the reasons it does not fit, in upstream's
   * order (node conflict, bind conflict, missing volume).
   */
  findPodVolumes(claims: PodVolumeClaims, node: Node): { volumes: PodVolumes; reasons: string[] } {
    let boundSatisfied = true;
    let boundFound = true;
    let unboundSatisfied = true;
    let enoughSpace = true;
    const staticBindings: StaticBinding[] = [];
    const dynamicProvisions: PersistentVolumeClaim[] = [];
    const reasons = () => [
      ...(boundSatisfied ? [] : [ERR_REASON_NODE_CONFLICT]),
      ...(unboundSatisfied ? [] : [ERR_REASON_BIND_CONFLICT]),
      ...(enoughSpace ? [] : [ERR_REASON_NOT_ENOUGH_SPACE]),
      ...(boundFound ? [] : [ERR_REASON_PV_NOT_EXIST]),
    ];
    for (const pvc of claims.bound) {
      const pv = this.listers.persistentVolume(pvc.spec?.volumeName ?? '');
      if (!pv) {
        boundFound = false;
        break;
      }
      if (!volumeFitsNode(pv, node)) {
        boundSatisfied = false;
        break;
      }
    }
    const volumes = { staticBindings, dynamicProvisions };
    if (claims.unboundDelayBinding.length === 0) return { volumes, reasons: reasons() };

    const toMatch: PersistentVolumeClaim[] = [];
    const toProvision: PersistentVolumeClaim[] = [];
    for (const pvc of claims.unboundDelayBinding) {
      const selected = pvc.metadata.annotations?.[ANN_SELECTED_NODE];
      if (selected === undefined) toMatch.push(pvc);
      else if (selected !== node.metadata.name) {
        unboundSatisfied = false;
        return { volumes, reasons: reasons() };
      } else toProvision.push(pvc);
    }
    if (toMatch.length > 0) {
      // Smallest claims first, so each gets the smallest volume that fits.
      toMatch.sort(
        (a, b) => storageBytes(a.spec?.resources?.requests) - storageBytes(b.spec?.resources?.requests),
      );
      const chosen = new Set<string>();
      for (const pvc of toMatch) {
        const candidates = claims.volumesByClass.get(claimClass(pvc)) ?? [];
        const pv = findMatchingVolume(pvc, candidates, node, chosen);
        if (!pv) {
          toProvision.push(pvc);
          unboundSatisfied = false;
          continue;
        }
        chosen.add(pv.metadata.name);
        staticBindings.push({ pv, pvc });
      }
    }
    if (toProvision.length > 0) {
      const can = canProvision(this.listers, toProvision, node);
      unboundSatisfied = can !== 'no';
      enoughSpace = can !== 'no space';
      if (can === 'yes') dynamicProvisions.push(...toProvision);
    }
    return { volumes, reasons: reasons() };
  }

  /** kube's AssumePodVolumes: true when nothing needs binding. */
  assume(nodeName: string, volumes: PodVolumes): boolean {
    if (volumes.staticBindings.length === 0 && volumes.dynamicProvisions.length === 0) return true;
    for (const b of volumes.staticBindings) {
      if (!b.pv.spec?.claimRef) this.assumedClaimRefs.set(b.pv.metadata.name, claimRef(b.pvc));
    }
    for (const pvc of volumes.dynamicProvisions) {
      if (pvc.metadata.annotations?.[ANN_SELECTED_NODE] === undefined)
        this.assumedSelectedNode.set(claimKey(pvc), nodeName);
    }
    return false;
  }

  /** kube's RevertAssumedPodVolumes. */
  revert(volumes: PodVolumes): void {
    for (const b of volumes.staticBindings) this.assumedClaimRefs.delete(b.pv.metadata.name);
    for (const pvc of volumes.dynamicProvisions) this.assumedSelectedNode.delete(claimKey(pvc));
  }

  /**
   * kube's BindPodVolumes: writes each chosen volume's claimRef and each provisioned claim's
   * selected node, then waits (polling the informers) until every claim is bound, for at most the
   * bind timeout. Keel has no PV controller, so for the volumes it chose the scheduler also
   * completes the other half of the binding, as kube's PV controller would: the claim's
   * volumeName and bind annotations, and both objects' phase `Bound`.
   */
  async bind(volumes: PodVolumes, nodeName: string, signal?: AbortSignal): Promise<void> {
    for (const { pv, pvc } of volumes.staticBindings) {
      const ns = pvc.metadata.namespace ?? '';
      const annotations = pv.spec?.claimRef ? {} : { [ANN_BOUND_BY_CONTROLLER]: 'yes' };
      await this.writer.patchPersistentVolume(
        pv.metadata.name,
        { metadata: { annotations }, spec: { claimRef: claimRef(pvc) } },
        undefined,
        signal,
      );
      await unlessForbidden(
        this.writer.patchPersistentVolume(pv.metadata.name, { status: { phase: 'Bound' } }, 'status', signal),
      );
      await this.writer.patchPersistentVolumeClaim(
        ns,
        pvc.metadata.name,
        {
          metadata: { annotations: { [ANN_BIND_COMPLETED]: 'yes', [ANN_BOUND_BY_CONTROLLER]: 'yes' } },
          spec: { volumeName: pv.metadata.name },
        },
        undefined,
        signal,
      );
      await unlessForbidden(
        this.writer.patchPersistentVolumeClaim(
          ns,
          pvc.metadata.name,
          {
            status: {
              phase: 'Bound',
              accessModes: pv.spec?.accessModes ?? [],
              capacity: pv.spec?.capacity ?? {},
            },
          },
          'status',
          signal,
        ),
      );
    }
    for (const pvc of volumes.dynamicProvisions) {
      if (pvc.metadata.annotations?.[ANN_SELECTED_NODE] === nodeName) continue;
      await this.writer.patchPersistentVolumeClaim(
        pvc.metadata.namespace ?? '',
        pvc.metadata.name,
        { metadata: { annotations: { [ANN_SELECTED_NODE]: nodeName } } },
        undefined,
        signal,
      );
    }
    const deadline = Date.now() + this.bindTimeoutMs;
    for (;;) {
      if (signal?.aborted) throw new Error('binding volumes: context canceled');
      if (this.checkBindings(volumes)) return;
      if (Date.now() >= deadline) throw new Error('binding volumes: context deadline exceeded');
      await sleep(Math.min(this.pollMs, Math.max(0, deadline - Date.now())), signal);
    }
  }

  /** kube's checkBindings: true once all are bound; throws when a binding was undone. */
  private checkBindings(volumes: PodVolumes): boolean {
    for (const { pv, pvc } of volumes.staticBindings) {
      const current = this.listers.persistentVolume(pv.metadata.name);
      if (!current)
        throw new Error(
          `binding volumes: failed to check binding: persistentvolume ${JSON.stringify(pv.metadata.name)} not found`,
        );
      const now = this.listers.persistentVolumeClaim(pvc.metadata.namespace ?? '', pvc.metadata.name);
      if (!now) throw new Error(`binding volumes: ${claimNotFound(pvc.metadata.name)}`);
      if (!claimFullyBound(now) || !current.spec?.claimRef) return false;
    }
    for (const pvc of volumes.dynamicProvisions) {
      const now = this.listers.persistentVolumeClaim(pvc.metadata.namespace ?? '', pvc.metadata.name);
      if (!now) throw new Error(`binding volumes: ${claimNotFound(pvc.metadata.name)}`);
      // Bound by an external provisioner (Keel itself provisions nothing).
      if (!claimFullyBound(now)) return false;
    }
    return true;
  }
}
