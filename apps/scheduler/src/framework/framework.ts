import type { SchedulerProfile } from '../options/index.js';
import type { CycleState } from './cycle-state.js';
import {
  type BindPlugin,
  type ClusterObjects,
  type FilterPlugin,
  type FilterRunner,
  type FrameworkHandle,
  type PodNominator,
  type PostFilterOutcome,
  type PostFilterPlugin,
  type PostFilterResult,
  type PreEnqueuePlugin,
  type PreBindPlugin,
  type PreFilterPlugin,
  type PreScorePlugin,
  type QueuedPodInfo,
  type QueueSortPlugin,
  type ReservePlugin,
  type ScorePlugin,
} from './interface.js';
import {
  FrameworkRecorder,
  PLUGIN_METRICS_NODES_PER_CYCLE,
  type FrameworkMetricsSink,
} from './metrics-recorder.js';
import type { NodeInfo, PodInfo } from './node-info.js';
import type { NodeToStatus } from './node-to-status.js';
import { buildPluginLists } from './plugin-lists.js';
import {
  addNominatedPods,
  filterWithNominatedInPlace,
  nodeWithNominatedPods,
  NOT_IN_PLACE,
  preFilterExtensionsActive,
  runPreFilterExtension,
} from './prefilter-extensions.js';
import type { Registry } from './registry.js';
import {
  errorText,
  runPreScores,
  runScores,
  type ScoreOutcome,
  type WeightedScorePlugin,
} from './score-plugins.js';
import { Code, Status, type MaybeStatus } from './status.js';
import type { Pod } from './types.js';

/**
 * One profile's plugins per extension point and the code that runs them (kube's frameworkImpl).
 * Everything up to Score is synchronous: a scheduling cycle runs to completion without yielding,
 * so the cache cannot change under it. PostFilter (extenders in preemption) and the binding cycle
 * may wait.
 */
export class Framework implements FilterRunner {
  readonly preEnqueuePlugins: readonly PreEnqueuePlugin[];
  readonly queueSortPlugins: readonly QueueSortPlugin[];
  readonly preFilterPlugins: readonly PreFilterPlugin[];
  readonly filterPlugins: readonly FilterPlugin[];
  readonly postFilterPlugins: readonly PostFilterPlugin[];
  readonly preScorePlugins: readonly PreScorePlugin[];
  readonly scorePlugins: readonly WeightedScorePlugin[];
  readonly reservePlugins: readonly ReservePlugin[];
  readonly preBindPlugins: readonly PreBindPlugin[];
  readonly bindPlugins: readonly BindPlugin[];
  /** Extension point and plugin timings; records nothing until `recordMetrics` names a sink. */
  metrics: FrameworkRecorder;

  private constructor(
    readonly profileName: string,
    /** The profile's own value; undefined means the configuration's global one applies. */
    readonly percentageOfNodesToScore: number | undefined,
    lists: ReturnType<typeof buildPluginLists>,
    /** Nominated pods, counted when filtering pods of lower or equal priority. */
    readonly nominator: PodNominator | undefined,
  ) {
    const p = lists.points;
    this.preEnqueuePlugins = p.preEnqueue as PreEnqueuePlugin[];
    this.queueSortPlugins = p.queueSort as QueueSortPlugin[];
    this.preFilterPlugins = p.preFilter as PreFilterPlugin[];
    this.filterPlugins = p.filter as FilterPlugin[];
    this.postFilterPlugins = p.postFilter as PostFilterPlugin[];
    this.preScorePlugins = p.preScore as PreScorePlugin[];
    this.scorePlugins = (p.score as ScorePlugin[]).map((plugin) => ({
      plugin,
      weight: lists.weights.get(plugin.name) ?? 1,
    }));
    this.reservePlugins = p.reserve as ReservePlugin[];
    this.preBindPlugins = p.preBind as PreBindPlugin[];
    this.bindPlugins = p.bind as BindPlugin[];
    this.metrics = new FrameworkRecorder(undefined, profileName);
  }

  /** Sends this profile's extension point and (sampled) plugin timings to `sink`. */
  recordMetrics(sink: FrameworkMetricsSink): void {
    this.metrics = new FrameworkRecorder(sink, this.profileName);
  }

  /**
   * Builds the framework for one defaulted profile (`SchedulerConfiguration.profiles[i]`). Throws,
   * with kube's wording, when a plugin is not registered, does not implement a point it is
   * explicitly enabled at, or is enabled twice, and when no queue sort plugin is left.
   */
  static fromProfile(
    profile: SchedulerProfile,
    registry: Registry,
    objects?: ClusterObjects,
    extra: Omit<FrameworkHandle, 'profileName' | 'objects'> = {},
  ): Framework {
    const lists = buildPluginLists(profile, registry, {
      ...extra,
      profileName: profile.schedulerName,
      ...(objects ? { objects } : {}),
      ...extra,
    });
    if (lists.points.queueSort.length === 0) throw new Error('no queue sort plugin is enabled');
    return new Framework(profile.schedulerName, profile.percentageOfNodesToScore, lists, extra.nominator);
  }

  /** The queue order: the (single) QueueSort plugin's less. */
  queueSortLess(): (a: QueuedPodInfo, b: QueuedPodInfo) => boolean {
    const sorter = this.queueSortPlugins[0] as QueueSortPlugin;
    return (a, b) => sorter.less(a, b);
  }

  /** The first PreEnqueue rejection (the pod stays gated), or undefined. */
  runPreEnqueuePlugins(pod: Pod): MaybeStatus {
    for (const pl of this.preEnqueuePlugins) {
      let s: MaybeStatus;
      try {
        s = pl.preEnqueue(pod);
      } catch (err) {
        return Status.fromError(
          new Error(`running PreEnqueue plugin ${JSON.stringify(pl.name)}: ${errorText(err)}`),
        ).withPlugin(pl.name);
      }
      if (s && !s.isSuccess()) return s.withPlugin(pl.name);
    }
    return undefined;
  }

  /** PreFilter: Skip marks the plugin's Filter as skipped; a rejection ends the cycle for every node. */
  runPreFilterPlugins(state: CycleState, pod: Pod): MaybeStatus {
    const start = performance.now();
    const s = this.preFilter(state, pod);
    this.metrics.observePoint('PreFilter', s, start);
    return s;
  }

  private preFilter(state: CycleState, pod: Pod): MaybeStatus {
    for (const pl of this.preFilterPlugins) {
      let s: MaybeStatus;
      const t = state.recordPluginMetrics ? performance.now() : 0;
      try {
        s = pl.preFilter(state, pod);
      } catch (err) {
        s = Status.fromError(err);
      }
      if (t !== 0) this.metrics.observePlugin(pl.name, 'PreFilter', s, t);
      if (!s || s.isSuccess()) continue;
      if (s.isSkip()) {
        state.skipFilterPlugins.add(pl.name);
        continue;
      }
      if (s.isRejected()) return s.withPlugin(pl.name);
      return Status.fromError(
        new Error(`running PreFilter plugin ${JSON.stringify(pl.name)}: ${s.message()}`),
      ).withPlugin(pl.name);
    }
    return undefined;
  }

  hasFilterPlugins(): boolean {
    return this.filterPlugins.length > 0;
  }

  /**
   * The filter plugins whose PreFilter did not skip this cycle, worked out once per cycle (and
   * again if a plugin was skipped since): a failed cycle filters every node of the cluster.
   */
  private activeFilterPlugins(state: CycleState): readonly FilterPlugin[] {
    const kept = state.activeFilters;
    const skipped = state.skipFilterPlugins.size;
    if (kept?.owner === this && kept.skipped === skipped) return kept.plugins as readonly FilterPlugin[];
    const plugins =
      skipped === 0
        ? this.filterPlugins
        : this.filterPlugins.filter((pl) => !state.skipFilterPlugins.has(pl.name));
    state.activeFilters = { owner: this, skipped, plugins };
    return plugins;
  }

  /** Filters one node, stopping at the first plugin that rejects it. */
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const timed = state.recordPluginMetrics && state.timedFilterNodes++ < PLUGIN_METRICS_NODES_PER_CYCLE;
    for (const pl of this.activeFilterPlugins(state)) {
      let s: MaybeStatus;
      const t = timed ? performance.now() : 0;
      try {
        s = pl.filter(state, pod, nodeInfo);
      } catch (err) {
        s = Status.fromError(err);
      }
      if (t !== 0) this.metrics.observePlugin(pl.name, 'Filter', s, t);
      if (!s || s.isSuccess()) continue;
      if (s.isRejected()) return s.withPlugin(pl.name);
      return Status.fromError(
        new Error(`running ${JSON.stringify(pl.name)} filter plugin: ${s.message()}`),
      ).withPlugin(pl.name);
    }
    return undefined;
  }

  /**
   * kube's RunFilterPluginsWithNominatedPods: the node must fit with the pods nominated to it of
   * equal or higher priority added (their room is reserved), and, when any were added, also
   * without them (a pod may need them absent, e.g. for anti-affinity). The nominated pods join a
   * copy of the node and, through the PreFilter extensions, a copy of the cycle state; nodes with
   * no nominated pods cost nothing extra.
   */
  runFilterPluginsWithNominatedPods(
    state: CycleState,
    pod: Pod,
    nodeInfo: NodeInfo,
    scratch = false,
  ): MaybeStatus {
    // Most cycles run with no pod nominated anywhere: no lookup per node then.
    const nominator = this.nominator;
    if (!nominator || nominator.size() === 0) return this.runFilterPlugins(state, pod, nodeInfo);
    // The node's nominations without a lookup by name: the cell its NodeInfo keeps.
    let cell = nodeInfo.nominations;
    if (cell === undefined || cell.owner !== nominator || cell.dead) {
      cell = nominator.nominationsOf(nodeInfo.name);
      nodeInfo.nominations = cell;
    }
    const nominated = cell.pods;
    if (nominated.length === 0) return this.runFilterPlugins(state, pod, nodeInfo);
    if (!this.preFilterExtensionsActive(state)) {
      if (scratch) {
        const s = filterWithNominatedInPlace(this, nominated, state, pod, nodeInfo);
        if (s !== NOT_IN_PLACE) return s;
      }
      // The cycle's state serves both runs: nothing to copy, nothing to allocate.
      const selfHere = nominator.nominatedNodeOf(pod) === nodeInfo.name;
      const copy = nodeWithNominatedPods(cell, pod, nodeInfo, selfHere);
      if (!copy) return this.runFilterPlugins(state, pod, nodeInfo);
      return this.runFilterPlugins(state, pod, copy) ?? this.runFilterPlugins(state, pod, nodeInfo);
    }
    let added: { state: CycleState; nodeInfo: NodeInfo } | undefined;
    try {
      added = addNominatedPods(this, nominated, state, pod, nodeInfo);
    } catch (err) {
      return Status.fromError(err);
    }
    const s = this.runFilterPlugins(added?.state ?? state, pod, added?.nodeInfo ?? nodeInfo);
    if (s || !added) return s;
    return this.runFilterPlugins(state, pod, nodeInfo);
  }

  /**
   * kube's RunPreFilterExtensionAddPod: each PreFilter plugin with extensions whose Filter is not
   * skipped this cycle counts `podToAdd`, now on `nodeInfo`, in its state. The first failure is
   * an Error status.
   */
  runPreFilterExtensionAddPod(
    state: CycleState,
    pod: Pod,
    podToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus {
    return runPreFilterExtension(this.preFilterPlugins, 'AddPod', state, pod, podToAdd, nodeInfo);
  }

  /** Whether a PreFilter plugin with AddPod/RemovePod runs its Filter in the cycle of `state`. */
  preFilterExtensionsActive(state: CycleState): boolean {
    // Asked for every nominated node of a pass: worked out once per cycle (and again if a plugin
    // was skipped since), like the active filter plugins.
    const kept = state.extensionsActive;
    const skipped = state.skipFilterPlugins.size;
    if (kept?.owner === this && kept.skipped === skipped) return kept.active;
    const active = preFilterExtensionsActive(this.preFilterPlugins, state);
    state.extensionsActive = { owner: this, skipped, active };
    return active;
  }

  /** kube's RunPreFilterExtensionRemovePod: as AddPod, for a pod taken off `nodeInfo`. */
  runPreFilterExtensionRemovePod(
    state: CycleState,
    pod: Pod,
    podToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus {
    return runPreFilterExtension(this.preFilterPlugins, 'RemovePod', state, pod, podToRemove, nodeInfo);
  }

  hasPostFilterPlugins(): boolean {
    return this.postFilterPlugins.length > 0;
  }

  /**
   * kube's RunPostFilterPlugins: the first plugin that succeeds, or says UnschedulableAndUnresolvable,
   * decides; otherwise the rejections' reasons are joined and the last result that nominates
   * (sets or clears) is kept. A plugin that errs (or throws) ends it with an Error. Asynchronous
   * because DefaultPreemption may ask extenders; only pods that failed Filter get here.
   */
  async runPostFilterPlugins(
    state: CycleState,
    pod: Pod,
    nodeToStatus: NodeToStatus,
  ): Promise<PostFilterOutcome> {
    const start = performance.now();
    const out = await this.postFilter(state, pod, nodeToStatus);
    this.metrics.observePoint('PostFilter', out.status, start);
    return out;
  }

  private async postFilter(
    state: CycleState,
    pod: Pod,
    nodeToStatus: NodeToStatus,
  ): Promise<PostFilterOutcome> {
    const reasons: string[] = [];
    let rejector = '';
    let result: PostFilterResult | undefined;
    for (const pl of this.postFilterPlugins) {
      let out: PostFilterOutcome;
      const t = state.recordPluginMetrics ? performance.now() : 0;
      try {
        out = await pl.postFilter(state, pod, nodeToStatus, this);
      } catch (err) {
        out = { status: Status.fromError(err) };
      }
      if (t !== 0) this.metrics.observePlugin(pl.name, 'PostFilter', out.status, t);
      const s = out.status;
      if (s.isSuccess()) return out;
      if (s.code === Code.UnschedulableAndUnresolvable) return { ...out, status: s.withPlugin(pl.name) };
      if (!s.isRejected()) return { status: Status.fromError(s.asError()).withPlugin(pl.name) };
      if (out.result) result = out.result;
      reasons.push(...s.reasons);
      if (rejector === '') rejector = pl.name;
    }
    return {
      ...(result ? { result } : {}),
      status: Status.unschedulable(...reasons).withPlugin(rejector),
    };
  }

  hasScorePlugins(): boolean {
    return this.scorePlugins.length > 0;
  }

  /** PreScore: Skip marks the plugin's Score as skipped; anything else unsuccessful is an error. */
  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus {
    const start = performance.now();
    const s = runPreScores(this.preScorePlugins, this.metrics, state, pod, nodes);
    this.metrics.observePoint('PreScore', s, start);
    return s;
  }

  /**
   * Each score plugin scores every node, normalizes its scores, which must then be integers in
   * 0..100, and contributes score × weight to each node's total.
   */
  runScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): ScoreOutcome {
    const start = performance.now();
    const outcome = runScores(this.scorePlugins, this.metrics, state, pod, nodes);
    this.metrics.observePoint('Score', outcome.ok ? undefined : outcome.status, start);
    return outcome;
  }

  /** Reserve: the first failure stops the others; the caller then runs `runReservePluginsUnreserve`. */
  runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): MaybeStatus {
    for (const pl of this.reservePlugins) {
      let s: MaybeStatus;
      try {
        s = pl.reserve(state, pod, nodeName);
      } catch (err) {
        s = Status.fromError(err);
      }
      if (!s || s.isSuccess()) continue;
      if (s.isRejected()) return s.withPlugin(pl.name);
      return Status.fromError(
        new Error(`running Reserve plugin ${JSON.stringify(pl.name)}: ${s.message()}`),
      ).withPlugin(pl.name);
    }
    return undefined;
  }

  /** Unreserve, in reverse order as kube does; a throwing plugin does not stop the others. */
  runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): void {
    for (let i = this.reservePlugins.length - 1; i >= 0; i--) {
      try {
        (this.reservePlugins[i] as ReservePlugin).unreserve(state, pod, nodeName);
      } catch {
        // Unreserve has no status in kube either; the pod is retried regardless.
      }
    }
  }

  /** PreBind: the first failure stops the binding cycle. */
  async runPreBindPlugins(
    state: CycleState,
    pod: Pod,
    nodeName: string,
    signal?: AbortSignal,
  ): Promise<MaybeStatus> {
    for (const pl of this.preBindPlugins) {
      let s: MaybeStatus;
      try {
        s = await pl.preBind(state, pod, nodeName, signal);
      } catch (err) {
        s = Status.fromError(err);
      }
      if (!s || s.isSuccess()) continue;
      if (s.isRejected()) return s.withPlugin(pl.name);
      return Status.fromError(
        new Error(`running PreBind plugin ${JSON.stringify(pl.name)}: ${s.message()}`),
      ).withPlugin(pl.name);
    }
    return undefined;
  }
}
