import type { Snapshot } from '../cache/snapshot.js';
import { CycleState } from '../framework/cycle-state.js';
import type { Framework } from '../framework/framework.js';
import { PLUGIN_METRICS_SAMPLE_PERCENT } from '../framework/metrics-recorder.js';
import type { NodeInfo } from '../framework/node-info.js';
import { Code, Status } from '../framework/status.js';
import type { Pod } from '../framework/types.js';
import { Diagnosis, FitError, NO_NODES_AVAILABLE } from './fit-error.js';
import { EXTENDER_NAME, type Extenders } from '../extender/extenders.js';
import { nominatedNodeName } from './nominator.js';

const MIN_FEASIBLE_NODES_TO_FIND = 100;
const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/**
 * kube's numFeasibleNodesToFind: every node in clusters under 100 nodes; otherwise the percentage
 * (0 = adaptive: 50% − nodes/125, at least 5%) of the nodes, but never fewer than 100.
 */
export function numFeasibleNodesToFind(percentage: number, numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
  let pct = percentage;
  if (pct === 0) {
    pct = 50 - Math.trunc(numAllNodes / 125);
    if (pct < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) pct = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const n = Math.trunc((numAllNodes * pct) / 100);
  return n < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : n;
}

/**
 * The best-scored node; ties are broken uniformly at random by reservoir sampling, as kube's
 * selectHost does. `random` returns [0, 1).
 */
export function selectHost(
  nodes: readonly NodeInfo[],
  totals: readonly number[],
  random: () => number,
): string {
  let best = -Infinity;
  let chosen = '';
  let ties = 0;
  nodes.forEach((n, i) => {
    const s = totals[i] ?? 0;
    if (s > best) {
      best = s;
      chosen = n.name;
      ties = 1;
    } else if (s === best) {
      ties++;
      if (Math.floor(random() * ties) === 0) chosen = n.name;
    }
  });
  return chosen;
}

export interface ScheduleResult {
  readonly suggestedHost: string;
  /** Nodes filtered this cycle (feasible and rejected). */
  readonly evaluatedNodes: number;
  readonly feasibleNodes: number;
}

export type ScheduleOutcome =
  | { readonly ok: true; readonly result: ScheduleResult; readonly state: CycleState }
  | {
      readonly ok: false;
      /** Unschedulable (FitError), UnschedulableAndUnresolvable (no nodes) or Error. */
      readonly status: Status;
      /** The text for the FailedScheduling event and the PodScheduled condition. */
      readonly message: string;
      readonly unschedulablePlugins: ReadonlySet<string>;
      readonly fitError?: FitError;
      /** The cycle's state, for PostFilter. */
      readonly state?: CycleState;
    };

export interface PodSchedulerOptions {
  /** The configuration's global `percentageOfNodesToScore`; a profile's own value wins. */
  readonly percentageOfNodesToScore: number;
  /** [0, 1); injectable so tie-breaks are testable. */
  readonly random?: () => number;
  /** The configuration's extenders, called by `schedule`; none by default. */
  readonly extenders?: Extenders;
  /** Whether a cycle records plugin durations; kube's 10% sample by default. */
  readonly samplePluginMetrics?: () => boolean;
}

const samplePercent = () => Math.random() * 100 < PLUGIN_METRICS_SAMPLE_PERCENT;

const failed = (status: Status, unschedulablePlugins: ReadonlySet<string> = new Set()): ScheduleOutcome => ({
  ok: false,
  status,
  message: status.message(),
  unschedulablePlugins,
});

/**
 * kube's schedulePod: filter the nodes, starting where the previous cycle stopped and stopping once
 * enough feasible nodes are found, score those, pick the best. Runs synchronously over a snapshot
 * view. Filters run one node after another (kube's `parallelism` has no use in one JS thread).
 */
export class PodScheduler {
  /** Where the next cycle starts filtering, so every node gets its turn. */
  nextStartNodeIndex = 0;
  private readonly random: () => number;
  private readonly samplePluginMetrics: () => boolean;

  constructor(private readonly options: PodSchedulerOptions) {
    this.random = options.random ?? Math.random;
    this.samplePluginMetrics = options.samplePluginMetrics ?? samplePercent;
  }

  /** A cycle without extenders: runs synchronously from start to end. */
  schedulePod(fwk: Framework, snapshot: Snapshot, pod: Pod, state = new CycleState()): ScheduleOutcome {
    const found = this.findNodesThatFit(fwk, snapshot, pod, state, true);
    if (!found.ok) return found.outcome;
    const { feasible, diagnosis, numAll } = found;
    if (feasible.length === 0) return this.fitError(pod, numAll, diagnosis, state);
    const done = this.done(state, feasible, diagnosis);
    if (feasible.length === 1) return done((feasible[0] as NodeInfo).name);
    if (!fwk.hasScorePlugins())
      return done(selectHost(feasible, new Array<number>(feasible.length).fill(1), this.random));
    const scored = this.scoreNodes(fwk, state, pod, feasible);
    return scored.ok ? done(selectHost(feasible, scored.totals, this.random)) : failed(scored.status);
  }

  /**
   * A whole cycle, with the configured extenders when there are any (kube's schedulePod): after
   * the filter plugins the extenders filter, and their scores are added to the score plugins'.
   * Extender calls are awaited, so the snapshot view may change meanwhile: nodes deleted during
   * a call are dropped, and the plugins score after the last call, in one synchronous stretch.
   */
  async schedule(
    fwk: Framework,
    snapshot: Snapshot,
    pod: Pod,
    state = new CycleState(),
  ): Promise<ScheduleOutcome> {
    const ext = this.options.extenders;
    if (!ext || ext.size === 0) return this.schedulePod(fwk, snapshot, pod, state);
    // kube evaluates a nominated node through the extenders too; Keel, with extenders configured,
    // simply evaluates every node (the nominated one among them).
    const found = this.findNodesThatFit(fwk, snapshot, pod, state, false);
    if (!found.ok) return found.outcome;
    const { diagnosis, numAll } = found;
    let feasible = found.feasible;
    if (feasible.length > 0) {
      let passed;
      try {
        passed = await ext.filter(pod, feasible);
      } catch (err) {
        return failed(Status.fromError(err));
      }
      for (const [name, s] of passed.rejected) diagnosis.addNodeStatus(name, s);
      // Extenders declare no events: any cluster event may make the pod schedulable again.
      if (passed.feasible.length !== feasible.length) diagnosis.unschedulablePlugins.add(EXTENDER_NAME);
      feasible = passed.feasible.filter((n) => n.node !== undefined);
    }
    if (feasible.length === 0) return this.fitError(pod, numAll, diagnosis, state);
    const done = this.done(state, feasible, diagnosis);
    if (feasible.length === 1) return done((feasible[0] as NodeInfo).name);
    const extenderScores = await ext.scores(pod, feasible);
    feasible = feasible.filter((n) => n.node !== undefined);
    if (feasible.length === 0) return this.fitError(pod, numAll, diagnosis, state);
    const scored = fwk.hasScorePlugins()
      ? this.scoreNodes(fwk, state, pod, feasible)
      : { ok: true as const, totals: new Array<number>(feasible.length).fill(0) };
    if (!scored.ok) return failed(scored.status);
    const totals = scored.totals.map((t, i) => t + (extenderScores.get((feasible[i] as NodeInfo).name) ?? 0));
    return this.done(state, feasible, diagnosis)(selectHost(feasible, totals, this.random));
  }

  /** PreFilter, then the filter plugins from where the last cycle stopped until enough nodes fit. */
  private findNodesThatFit(
    fwk: Framework,
    snapshot: Snapshot,
    pod: Pod,
    state: CycleState,
    tryNominated: boolean,
  ):
    | { readonly ok: false; readonly outcome: ScheduleOutcome }
    | {
        readonly ok: true;
        readonly feasible: NodeInfo[];
        readonly diagnosis: Diagnosis;
        readonly numAll: number;
      } {
    const nodes = snapshot.nodeInfos;
    const numAll = nodes.length;
    const stop = (outcome: ScheduleOutcome) => ({ ok: false as const, outcome });
    if (numAll === 0) return stop(failed(Status.of(Code.UnschedulableAndUnresolvable, NO_NODES_AVAILABLE)));

    state.snapshot = snapshot;
    state.recordPluginMetrics = this.samplePluginMetrics();
    const diagnosis = new Diagnosis();
    const pre = fwk.runPreFilterPlugins(state, pod);
    if (pre?.isRejected()) {
      diagnosis.preFilterMsg = pre.message();
      // kube: a PreFilter rejection is every node's status (preemption reads it).
      diagnosis.nodeToStatus.setAbsentNodesStatus(pre);
      if (pre.plugin !== '') diagnosis.unschedulablePlugins.add(pre.plugin);
      return stop(this.fitError(pod, numAll, diagnosis, state));
    }
    if (pre) return stop(failed(pre));

    const toFind = numFeasibleNodesToFind(
      fwk.percentageOfNodesToScore ?? this.options.percentageOfNodesToScore,
      numAll,
    );
    const start = this.nextStartNodeIndex % numAll;
    const feasible: NodeInfo[] = [];
    let processed = 0;
    // kube's evaluateNominatedNode: a pod nominated by an earlier preemption tries that node first.
    const nominated = nominatedNodeName(pod);
    const nominatedNode = nominated !== '' && fwk.hasFilterPlugins() ? snapshot.get(nominated) : undefined;
    if (tryNominated && nominatedNode && !fwk.runFilterPluginsWithNominatedPods(state, pod, nominatedNode)) {
      return stop({
        ok: true,
        result: { suggestedHost: nominatedNode.name, evaluatedNodes: 1, feasibleNodes: 1 },
        state,
      });
    }
    if (!fwk.hasFilterPlugins()) {
      for (; processed < toFind; processed++) feasible.push(nodes[(start + processed) % numAll] as NodeInfo);
    } else {
      // While every node so far was rejected with one status, nothing is recorded: if the whole
      // cluster turns the pod down for one reason (a pod that fits nowhere, e.g. a preemptor), it
      // is recorded once for all nodes; at the first other outcome the nodes so far get theirs.
      let uniform: Status | undefined;
      let perNode = false;
      const recordSoFar = () => {
        perNode = true;
        if (!uniform) return;
        const rejected = processed - feasible.length;
        for (let k = 0; k < rejected; k++) {
          diagnosis.addNodeStatus((nodes[(start + k) % numAll] as NodeInfo).name, uniform);
        }
      };
      for (; processed < numAll && feasible.length < toFind; processed++) {
        const node = nodes[(start + processed) % numAll] as NodeInfo;
        const s = fwk.runFilterPluginsWithNominatedPods(state, pod, node);
        if (!s) {
          if (!perNode) recordSoFar();
          feasible.push(node);
        } else if (s.code === Code.Error) {
          this.nextStartNodeIndex = (start + processed + 1) % numAll;
          return stop(failed(s));
        } else if (perNode) diagnosis.addNodeStatus(node.name, s);
        else if (!uniform) uniform = s;
        else if (s !== uniform) {
          recordSoFar();
          diagnosis.addNodeStatus(node.name, s);
        }
      }
      if (!perNode && uniform) {
        if (processed === numAll) diagnosis.allNodesRejected(uniform, numAll);
        else recordSoFar();
      }
    }
    this.nextStartNodeIndex = (start + processed) % numAll;
    return { ok: true, feasible, diagnosis, numAll };
  }

  private scoreNodes(fwk: Framework, state: CycleState, pod: Pod, feasible: readonly NodeInfo[]) {
    const preScore = fwk.runPreScorePlugins(state, pod, feasible);
    if (preScore) return { ok: false as const, status: preScore };
    return fwk.runScorePlugins(state, pod, feasible);
  }

  private done(state: CycleState, feasible: readonly NodeInfo[], diagnosis: Diagnosis) {
    const evaluatedNodes = feasible.length + diagnosis.failedNodes;
    return (suggestedHost: string): ScheduleOutcome => ({
      ok: true,
      result: { suggestedHost, evaluatedNodes, feasibleNodes: feasible.length },
      state,
    });
  }

  private fitError(pod: Pod, numAll: number, diagnosis: Diagnosis, state: CycleState): ScheduleOutcome {
    const fitError = new FitError(pod, numAll, diagnosis);
    return {
      ok: false,
      status: Status.unschedulable(fitError.message),
      message: fitError.message,
      unschedulablePlugins: diagnosis.unschedulablePlugins,
      fitError,
      state,
    };
  }
}
