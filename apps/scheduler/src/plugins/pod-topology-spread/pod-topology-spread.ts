import { stateKey, type CycleState } from '../../framework/cycle-state.js';
import {
  NO_CLUSTER_OBJECTS,
  type ClusterObjects,
  type FilterPlugin,
  type PluginFactory,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScorePlugin,
} from '../../framework/interface.js';
import type { NodeInfo, PodInfo } from '../../framework/node-info.js';
import { memoized, NodeMemo } from '../../framework/node-memo.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { parsePodTopologySpreadArgs, type PodTopologySpreadArgs } from './args.js';
import { countPodsMatchSelector, selectorKey, type Constraint, type CountOnNode } from './common.js';
import { calPreFilterState, filterNode, updateWithPod, type PreFilterState } from './filtering.js';
import { calPreScoreState, normalize, scoreNode, type PreScoreState } from './scoring.js';

export const NAME = 'PodTopologySpread';

const preFilterKey = stateKey<PreFilterState>('PreFilter' + NAME);
const preScoreKey = stateKey<PreScoreState>('PreScore' + NAME);

function snapshotOf(state: CycleState) {
  if (!state.snapshot) throw new Error('no node snapshot in the cycle state');
  return state.snapshot;
}

/**
 * kube's PodTopologySpread. Filter: `whenUnsatisfiable: DoNotSchedule` constraints (maxSkew,
 * minDomains, node inclusion policies, matchLabelKeys). Score: `ScheduleAnyway` constraints, and
 * for pods without constraints the default ones (System: hostname maxSkew 3 and zone maxSkew 5,
 * selecting the pod's services' pods), fewer matching pods in a node's domains scoring higher.
 */
export class PodTopologySpread implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;

  /** Matching pods per node and selector, recounted only on nodes that changed. */
  private readonly memo = new NodeMemo<number>();
  /** The memo table of each constraint of the current cycle, so keys are not rebuilt per node. */
  private readonly tables = new WeakMap<Constraint, ReturnType<NodeMemo<number>['table']>>();
  private readonly count: CountOnNode = (info, c, ns) => {
    let t = this.tables.get(c);
    if (!t) {
      t = this.memo.table(`${ns}\u0000${selectorKey(c.selector)}`);
      this.tables.set(c, t);
    }
    return memoized(t, info, (i) => countPodsMatchSelector(i.pods, c.selector, ns));
  };

  constructor(
    private readonly args: PodTopologySpreadArgs,
    private readonly objects: ClusterObjects,
  ) {}

  preFilter(state: CycleState, pod: Pod): MaybeStatus {
    const s = calPreFilterState(
      pod,
      snapshotOf(state),
      this.args.defaultConstraints,
      this.objects,
      this.count,
    );
    if (s.constraints.length === 0) return Status.skip();
    state.write(preFilterKey, s);
    return undefined;
  }

  /** kube's AddPod: counts `podToAdd`, now on `nodeInfo`, in its domains. */
  addPod(state: CycleState, pod: Pod, podToAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return this.update(state, pod, podToAdd, nodeInfo, 1);
  }

  /** kube's RemovePod: uncounts `podToRemove`, taken off `nodeInfo`. */
  removePod(state: CycleState, pod: Pod, podToRemove: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return this.update(state, pod, podToRemove, nodeInfo, -1);
  }

  private update(
    state: CycleState,
    pod: Pod,
    other: PodInfo,
    nodeInfo: NodeInfo,
    delta: number,
  ): MaybeStatus {
    const s = state.read(preFilterKey);
    if (!s) return Status.fromError(new Error(`reading "PreFilter${NAME}" from cycleState: not found`));
    updateWithPod(s, other.pod, pod, nodeInfo.node, delta);
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const s = state.read(preFilterKey);
    if (!s) return Status.fromError(new Error(`reading "PreFilter${NAME}" from cycleState: not found`));
    return filterNode(s, pod, nodeInfo);
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus {
    const snapshot = snapshotOf(state);
    if (nodes.length === 0 || snapshot.nodeInfos.length === 0) return Status.skip();
    const s = calPreScoreState(
      pod,
      nodes,
      snapshot,
      this.args.defaultConstraints,
      this.args.defaultingType === 'System',
      this.objects,
      this.count,
    );
    if (!s) return Status.skip();
    state.write(preScoreKey, s);
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const s = state.read(preScoreKey);
    if (!s) throw new Error(`reading "PreScore${NAME}" from cycleState: not found`);
    return scoreNode(s, pod, nodeInfo, this.count);
  }

  normalizeScores(scores: number[], state: CycleState): void {
    const s = state.read(preScoreKey);
    if (s) normalize(s, scores);
  }
}

export const create: PluginFactory = (args, handle) => {
  const parsed = parsePodTopologySpreadArgs(args);
  const objects = handle.objects ?? NO_CLUSTER_OBJECTS;
  // As kube's New: the workload listers (so their informers) only when defaults can apply.
  if (parsed.defaultConstraints.length > 0) objects.watchWorkloads();
  return new PodTopologySpread(parsed, objects);
};
