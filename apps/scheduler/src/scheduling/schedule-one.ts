import type { Snapshot } from '../cache/snapshot.js';
import { CycleState } from '../framework/cycle-state.js';
import type { Framework } from '../framework/framework.js';
import { PLUGIN_METRICS_SAMPLE_PERCENT } from '../framework/metrics-recorder.js';
import type { NodeInfo } from '../framework/node-info.js';
import { Code, Status } from '../framework/status.js';
import type { Pod } from '../framework/types.js';
import { Diagnosis, FitError, NO_NODES_AVAILABLE } from './fit-error.js';

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
    };

export interface PodSchedulerOptions {
  /** The configuration's global `percentageOfNodesToScore`; a profile's own value wins. */
  readonly percentageOfNodesToScore: number;
  /** [0, 1); injectable so tie-breaks are testable. */
  readonly random?: () => number;
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

  schedulePod(fwk: Framework, snapshot: Snapshot, pod: Pod, state = new CycleState()): ScheduleOutcome {
    const nodes = snapshot.nodeInfos;
    const numAll = nodes.length;
    if (numAll === 0) return failed(Status.of(Code.UnschedulableAndUnresolvable, NO_NODES_AVAILABLE));

    state.snapshot = snapshot;
    state.recordPluginMetrics = this.samplePluginMetrics();
    const diagnosis = new Diagnosis();
    const pre = fwk.runPreFilterPlugins(state, pod);
    if (pre?.isRejected()) {
      diagnosis.preFilterMsg = pre.message();
      if (pre.plugin !== '') diagnosis.unschedulablePlugins.add(pre.plugin);
      return this.fitError(pod, numAll, diagnosis);
    }
    if (pre) return failed(pre);

    const toFind = numFeasibleNodesToFind(
      fwk.percentageOfNodesToScore ?? this.options.percentageOfNodesToScore,
      numAll,
    );
    const start = this.nextStartNodeIndex % numAll;
    const feasible: NodeInfo[] = [];
    let processed = 0;
    if (!fwk.hasFilterPlugins()) {
      for (; processed < toFind; processed++) feasible.push(nodes[(start + processed) % numAll] as NodeInfo);
    } else {
      for (; processed < numAll && feasible.length < toFind; processed++) {
        const node = nodes[(start + processed) % numAll] as NodeInfo;
        const s = fwk.runFilterPlugins(state, pod, node);
        if (!s) feasible.push(node);
        else if (s.code === Code.Error) {
          this.nextStartNodeIndex = (start + processed + 1) % numAll;
          return failed(s);
        } else diagnosis.addNodeStatus(s);
      }
    }
    this.nextStartNodeIndex = (start + processed) % numAll;

    if (feasible.length === 0) return this.fitError(pod, numAll, diagnosis);
    const evaluatedNodes = feasible.length + diagnosis.failedNodes;
    const done = (suggestedHost: string): ScheduleOutcome => ({
      ok: true,
      result: { suggestedHost, evaluatedNodes, feasibleNodes: feasible.length },
      state,
    });
    if (feasible.length === 1) return done((feasible[0] as NodeInfo).name);

    if (!fwk.hasScorePlugins())
      return done(selectHost(feasible, new Array<number>(feasible.length).fill(1), this.random));
    const preScore = fwk.runPreScorePlugins(state, pod, feasible);
    if (preScore) return failed(preScore);
    const scored = fwk.runScorePlugins(state, pod, feasible);
    if (!scored.ok) return failed(scored.status);
    return done(selectHost(feasible, scored.totals, this.random));
  }

  private fitError(pod: Pod, numAll: number, diagnosis: Diagnosis): ScheduleOutcome {
    const fitError = new FitError(pod, numAll, diagnosis);
    return {
      ok: false,
      status: Status.unschedulable(fitError.message),
      message: fitError.message,
      unschedulablePlugins: diagnosis.unschedulablePlugins,
      fitError,
    };
  }
}
