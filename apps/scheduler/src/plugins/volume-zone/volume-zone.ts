import { stateKey, type CycleState } from '../../framework/cycle-state.js';
import type { FilterPlugin, PluginFactory, PreFilterPlugin } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import {
  NO_VOLUME_LISTERS,
  type PersistentVolume,
  type VolumeListers,
} from '../../framework/volume-objects.js';
import { claimClass, claimNotFound } from '../helper/volumes.js';

export const NAME = 'VolumeZone';
export const ERR_REASON_CONFLICT = 'node(s) had no available volume zone';

const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
/** kube's order: the deprecated labels first. */
const TOPOLOGY_LABELS = [BETA_ZONE, BETA_REGION, ZONE, REGION] as const;
const GA: Readonly<Record<string, string>> = { [BETA_ZONE]: ZONE, [BETA_REGION]: REGION };

interface PVTopology {
  readonly key: string;
  readonly values: ReadonlySet<string>;
}
const key = stateKey<readonly PVTopology[]>('PreFilter' + NAME);

/**
 * kube's LabelZonesToSet: a multi-zone value is `__`-separated; a malformed one (an empty
 * element) is ignored, as upstream logs and skips it.
 */
function zones(value: string): Set<string> | undefined {
  const parts = value.split('__');
  if (parts.some((p) => p.trim() === '')) return undefined;
  return new Set(parts.map((p) => p.trim()));
}

function pvTopologies(pv: PersistentVolume): PVTopology[] {
  const out: PVTopology[] = [];
  const labels = pv.metadata.labels ?? {};
  for (const k of TOPOLOGY_LABELS) {
    const v = labels[k];
    if (v === undefined) continue;
    const values = zones(v);
    if (values) out.push({ key: k, values });
  }
  return out;
}

/**
 * kube's VolumeZone: a bound claim's PersistentVolume labelled with zones or regions
 * (topology.kubernetes.io/zone, .../region, and the deprecated failure-domain.beta labels) only
 * fits nodes labelled with one of them. Nodes without any topology label fit (single-zone
 * clusters). Unbound WaitForFirstConsumer claims are VolumeBinding's business.
 */
export class VolumeZone implements PreFilterPlugin, FilterPlugin {
  readonly name = NAME;

  constructor(private readonly volumes: VolumeListers) {}

  private topologies(pod: Pod): PVTopology[] | Status {
    const out: PVTopology[] = [];
    const ns = pod.metadata.namespace ?? '';
    for (const v of pod.spec.volumes ?? []) {
      if (!v.persistentVolumeClaim) continue;
      const name = v.persistentVolumeClaim.claimName;
      if (name === '') return Status.unresolvable('PersistentVolumeClaim had no name');
      const pvc = this.volumes.persistentVolumeClaim(ns, name);
      if (!pvc) return Status.unresolvable(claimNotFound(name));
      const pvName = pvc.spec?.volumeName ?? '';
      if (pvName === '') {
        const className = claimClass(pvc);
        if (className === '')
          return Status.unresolvable('PersistentVolumeClaim had no pv name and storageClass name');
        const sc = this.volumes.storageClass(className);
        if (!sc)
          return Status.unresolvable(`storageclass.storage.k8s.io ${JSON.stringify(className)} not found`);
        if (sc.volumeBindingMode === undefined)
          return Status.unresolvable(
            `VolumeBindingMode not set for StorageClass ${JSON.stringify(className)}`,
          );
        if (sc.volumeBindingMode === 'WaitForFirstConsumer') continue;
        return Status.unresolvable('PersistentVolume had no name');
      }
      const pv = this.volumes.persistentVolume(pvName);
      if (!pv) return Status.unresolvable(`persistentvolume ${JSON.stringify(pvName)} not found`);
      out.push(...pvTopologies(pv));
    }
    return out;
  }

  preFilter(state: CycleState, pod: Pod): MaybeStatus {
    const t = this.topologies(pod);
    if (t instanceof Status) return t;
    if (t.length === 0) return Status.skip();
    state.write(key, t);
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    if ((pod.spec.volumes ?? []).length === 0) return undefined;
    let topologies = state.read(key);
    if (!topologies) {
      const t = this.topologies(pod);
      if (t instanceof Status) return t;
      topologies = t;
    }
    const labels = nodeInfo.node?.metadata.labels ?? {};
    if (!TOPOLOGY_LABELS.some((k) => Object.hasOwn(labels, k))) return undefined;
    for (const t of topologies) {
      const v = labels[t.key] ?? labels[GA[t.key] ?? t.key];
      if (v === undefined || !t.values.has(v)) return Status.unresolvable(ERR_REASON_CONFLICT);
    }
    return undefined;
  }
}

export const create: PluginFactory = (_args, handle) => new VolumeZone(handle.volumes ?? NO_VOLUME_LISTERS);
