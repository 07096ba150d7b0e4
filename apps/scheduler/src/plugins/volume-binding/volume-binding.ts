import { stateKey, type CycleState } from '../../framework/cycle-state.js';
import type {
  FilterPlugin,
  PluginFactory,
  PreBindPlugin,
  PreFilterPlugin,
  PreScorePlugin,
  ReservePlugin,
  ScorePlugin,
} from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { NO_VOLUME_LISTERS, NO_VOLUME_WRITER } from '../../framework/volume-objects.js';
import { parseVolumeBindingArgs } from './args.js';
import { VolumeBinder, type PodVolumeClaims, type PodVolumes } from './binder.js';

export const NAME = 'VolumeBinding';
export const ERR_REASON_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';

interface State {
  /** Undefined when the pod has no claims (kube's empty stateData). */
  readonly claims: PodVolumeClaims | undefined;
  readonly byNode: Map<string, PodVolumes>;
  allBound: boolean;
}
const key = stateKey<State>(NAME);

function readState(state: CycleState): State {
  const s = state.read(key);
  if (!s) throw new Error(`reading "${NAME}" from cycleState: not found`);
  return s;
}

/**
 * kube's VolumeBinding. PreFilter: a pod whose Immediate claims are not bound yet cannot be
 * placed anywhere. Filter: a bound claim's volume must fit the node; each unbound
 * WaitForFirstConsumer claim needs an available matching volume there, or a class that can
 * provision there. Reserve remembers the choice; PreBind binds volumes and claims through the API
 * server and waits until they are bound, before the pod is bound. Score needs the
 * StorageCapacityScoring gate, off in 1.33 as here, so PreScore always skips.
 */
export class VolumeBinding
  implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ReservePlugin, PreBindPlugin
{
  readonly name = NAME;

  constructor(readonly binder: VolumeBinder) {}

  preFilter(state: CycleState, pod: Pod): MaybeStatus {
    const { hasClaims, error } = this.binder.checkClaims(pod);
    if (error !== undefined) return Status.unresolvable(error);
    if (!hasClaims) {
      state.write(key, { claims: undefined, byNode: new Map(), allBound: true });
      return Status.skip();
    }
    const claims = this.binder.podVolumeClaims(pod);
    // They wait for a PV controller, which moves the pod on when it binds them.
    if (claims.unboundImmediate.length > 0) return Status.unresolvable(ERR_REASON_UNBOUND_IMMEDIATE);
    state.write(key, { claims, byNode: new Map(), allBound: false });
    return undefined;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const s = readState(state);
    if (!s.claims || !nodeInfo.node) return undefined;
    const { volumes, reasons } = this.binder.findPodVolumes(s.claims, nodeInfo.node);
    if (reasons.length > 0) return Status.unresolvable(...reasons);
    s.byNode.set(nodeInfo.name, volumes);
    return undefined;
  }

  preScore(): MaybeStatus {
    return Status.skip();
  }

  score(): number {
    return 0;
  }

  reserve(state: CycleState, _pod: Pod, nodeName: string): MaybeStatus {
    const s = state.read(key);
    if (!s) return undefined;
    const volumes = s.byNode.get(nodeName);
    s.allBound = volumes ? this.binder.assume(nodeName, volumes) : true;
    return undefined;
  }

  unreserve(state: CycleState, _pod: Pod, nodeName: string): void {
    const volumes = state.read(key)?.byNode.get(nodeName);
    if (volumes) this.binder.revert(volumes);
  }

  async preBind(state: CycleState, _pod: Pod, nodeName: string, signal?: AbortSignal): Promise<MaybeStatus> {
    const s = readState(state);
    if (s.allBound) return undefined;
    const volumes = s.byNode.get(nodeName);
    if (!volumes)
      return Status.fromError(new Error(`no pod volumes found for node ${JSON.stringify(nodeName)}`));
    try {
      await this.binder.bind(volumes, nodeName, signal);
      return undefined;
    } catch (err) {
      return Status.fromError(err);
    }
  }
}

export const create: PluginFactory = (args, handle) => {
  const { bindTimeoutSeconds } = parseVolumeBindingArgs(args);
  return new VolumeBinding(
    new VolumeBinder(
      handle.volumes ?? NO_VOLUME_LISTERS,
      handle.volumeWriter ?? NO_VOLUME_WRITER,
      bindTimeoutSeconds * 1000,
    ),
  );
};
