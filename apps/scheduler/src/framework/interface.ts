import type { LabelSelector, LabelSelectorSpec } from '@keel/apimachinery';
import type { Extenders } from '../extender/extenders.js';
import type { Labels } from './affinity-terms.js';
import type { CycleState } from './cycle-state.js';
import type { NodeInfo, PodInfo } from './node-info.js';
import type { NodeToStatus } from './node-to-status.js';
import type { PreemptionHandle, PreemptionMetrics } from './preemption-handle.js';
import type { MaybeStatus, Status } from './status.js';
import type { Pod } from './types.js';
import type { VolumeListers, VolumeWriter } from './volume-objects.js';

/** The highest score a plugin may give a node (after normalizing); the lowest is 0. */
export const MAX_NODE_SCORE = 100;
export const MIN_NODE_SCORE = 0;

/**
 * A pod in the scheduling queue. `timestamp` is when it last entered the queue (it orders pods
 * of equal priority and starts its backoff); `attempts` counts the cycles it was popped for.
 */
export interface QueuedPodInfo {
  pod: Pod;
  /** `namespace/name`. */
  readonly key: string;
  timestamp: number;
  attempts: number;
  /** When it was first popped; undefined until then. */
  initialAttemptTimestamp: number | undefined;
  /** The plugins that rejected it in its last cycle; empty after an internal error. */
  unschedulablePlugins: Set<string>;
  /** Held back by a PreEnqueue plugin (scheduling gates). */
  gated: boolean;
}

/** Every plugin has a name; each extension point is a separate interface it may implement. */
export interface Plugin {
  readonly name: string;
}

/** Decides whether a pod may enter the active queue at all. */
export interface PreEnqueuePlugin extends Plugin {
  preEnqueue(pod: Pod): MaybeStatus;
}

/** Orders the active queue. Exactly one per profile, the same in every profile. */
export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/**
 * Runs once per cycle before any Filter: precomputes per-pod data into the CycleState. A plugin
 * whose precomputed data counts other pods implements kube's PreFilterExtensions: `addPod` and
 * `removePod` update that data, in a cloned state, for a pod added to or removed from `nodeInfo`
 * (nominated pods, preemption victims) so Filter sees what-if changes.
 */
export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: Pod): MaybeStatus;
  addPod?(state: CycleState, podToSchedule: Pod, podToAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus;
  removePod?(state: CycleState, podToSchedule: Pod, podToRemove: PodInfo, nodeInfo: NodeInfo): MaybeStatus;
}

/** Whether `pod` fits on one node; a rejection is Unschedulable(AndUnresolvable) with reasons. */
export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus;
}

/**
 * What PostFilter plugins may run again: the filters, with the nominated pods counted, and the
 * PreFilter extensions that keep precomputed state in step with pods removed from or added to a
 * node copy (kube's RunPreFilterExtensionRemovePod / AddPod).
 */
export interface FilterRunner {
  /**
   * `scratch`: `nodeInfo` is the caller's own copy, which the nominated pods may join for the
   * first run and leave again (instead of a copy of the copy); it is as it was on return.
   */
  runFilterPluginsWithNominatedPods(
    state: CycleState,
    pod: Pod,
    nodeInfo: NodeInfo,
    scratch?: boolean,
  ): MaybeStatus;
  /**
   * Whether any PreFilter plugin with AddPod/RemovePod runs its Filter in the cycle of `state`;
   * when none does, removing or adding pods on a node copy leaves the state as it is.
   */
  preFilterExtensionsActive(state: CycleState): boolean;
  runPreFilterExtensionAddPod(
    state: CycleState,
    pod: Pod,
    podToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus;
  runPreFilterExtensionRemovePod(
    state: CycleState,
    pod: Pod,
    podToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus;
}

/**
 * kube's PostFilterResult with its NominatingInfo: `nominatedNodeName` a node name sets the pod's
 * `status.nominatedNodeName`, `''` clears it (ModeOverride); no result leaves it alone (ModeNoop).
 */
export interface PostFilterResult {
  readonly nominatedNodeName: string;
}

export interface PostFilterOutcome {
  readonly result?: PostFilterResult;
  /** Success when the pod may fit after all (preemption started); otherwise why not. */
  readonly status: Status;
}

/**
 * Runs when no node passed Filter (kube's PostFilter, DefaultPreemption's point). `nodeToStatus`
 * says why each node failed; `filters` re-runs the filters on node copies.
 */
export interface PostFilterPlugin extends Plugin {
  postFilter(
    state: CycleState,
    pod: Pod,
    nodeToStatus: NodeToStatus,
    filters: FilterRunner,
  ): PostFilterOutcome | Promise<PostFilterOutcome>;
}

/** One node's nominated pods, as `PodNominator.nominationsOf` hands them out. */
export interface NominatedCell {
  readonly owner: PodNominator;
  readonly pods: readonly PodInfo[];
  /**
   * The lowest priority among `pods` (Infinity when there are none), kept with them: a failed
   * cycle asks every nominated node whether all its pods count, and reading each pod there was
   * most of what a nominated node cost.
   */
  readonly minPriority: number;
  /** Dropped by its nominator (the node was deleted): ask again. */
  readonly dead: boolean;
}

/**
 * kube's PodNominator: pods nominated to a node (`status.nominatedNodeName`, or set by preemption
 * ahead of the API server), whose room other pods of lower or equal priority must leave free.
 */
export interface PodNominator {
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];
  /**
   * The node's nominations as one object the nominator keeps up to date in place (until `dead`),
   * so a NodeInfo can hold it and a filter pass over thousands of nodes makes no lookup per node.
   */
  nominationsOf(nodeName: string): NominatedCell;
  /** How many pods are nominated, to any node (0 lets a filter pass skip the lookups). */
  size(): number;
  /** The node `pod` is nominated to, or undefined. */
  nominatedNodeOf(pod: Pod): string | undefined;
  /** Nominates `pod` to `nodeName`; `''` drops its nomination. */
  addNominatedPod(pod: Pod, nodeName: string): void;
}

/** Runs once before scoring, over the feasible nodes. */
export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus;
}

/**
 * Ranks a feasible node. Without `normalizeScores` the score must already be in 0..100; with it,
 * the raw scores of all nodes (aligned with the node list) are rewritten in place into 0..100.
 * A plugin signals an internal error by throwing.
 */
export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number;
  normalizeScores?(scores: number[], state: CycleState, pod: Pod): void;
}

/**
 * Runs once the pod is assumed on its node, before the binding cycle: claims what the binding
 * will need (volumes). `unreserve` undoes it when a later step fails; it must be idempotent.
 */
export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): MaybeStatus;
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

/** Runs in the binding cycle before Bind (VolumeBinding writes and waits for the volume bindings). */
export interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: Pod, nodeName: string, signal?: AbortSignal): Promise<MaybeStatus>;
}

/** Binds a pod to its node (DefaultBinder: the pods/binding POST). Provided by the caller. */
export interface BindPlugin extends Plugin {
  bind(state: CycleState, pod: Pod, nodeName: string, signal?: AbortSignal): Promise<MaybeStatus>;
}

/** The controllers whose selectors kube's helper.DefaultSelector reads when they own a pod. */
export type WorkloadKind = 'ReplicaSet' | 'StatefulSet';

/**
 * Cluster objects other than pods and nodes that plugins read (kube's informer listers): namespace
 * labels for affinity terms' namespaceSelector, and services, replication controllers, replica sets
 * and stateful sets, whose selectors default topology spreading. Reads are from the informers'
 * caches, never from the API server.
 */
export interface ClusterObjects {
  /** The namespace's labels; undefined when the namespace is not known. */
  namespaceLabels(name: string): Labels | undefined;
  /** Names of the namespaces whose labels match. */
  namespacesMatching(selector: LabelSelector): string[];
  /** `spec.selector` of each service in the namespace that has one. */
  serviceSelectors(namespace: string): readonly Labels[];
  /**
   * Asks for the ReplicationController, ReplicaSet and StatefulSet informers. Call it while the
   * plugin is built: like kube's shared informer factory, the scheduler only lists and watches
   * those kinds when a plugin asked for their listers.
   */
  watchWorkloads(): void;
  /**
   * The ReplicationController `namespace/name`: `found` false when it is not known (or nothing
   * asked for the informers), else its `spec.selector` (null when it has none).
   */
  replicationControllerSelector(
    namespace: string,
    name: string,
  ): { readonly found: false } | { readonly found: true; readonly selector: Labels | null };
  /** As replicationControllerSelector, for an apps/v1 ReplicaSet or StatefulSet. */
  workloadSelector(
    kind: WorkloadKind,
    namespace: string,
    name: string,
  ): { readonly found: false } | { readonly found: true; readonly selector: LabelSelectorSpec | null };
}

/** No namespaces, services or workloads: for tests and for frameworks built without informers. */
export const NO_CLUSTER_OBJECTS: ClusterObjects = {
  namespaceLabels: () => undefined,
  namespacesMatching: () => [],
  serviceSelectors: () => [],
  watchWorkloads: () => undefined,
  replicationControllerSelector: () => ({ found: false }),
  workloadSelector: () => ({ found: false }),
};

/** What a plugin factory gets besides its args. */
export interface FrameworkHandle {
  readonly profileName: string;
  /** Defaults to NO_CLUSTER_OBJECTS. */
  readonly objects?: ClusterObjects;
  /** The configuration's extenders (kube's Handle.Extenders), for DefaultPreemption. */
  readonly extenders?: Extenders;
  /** Nominated pods; without it none are counted when filtering. */
  readonly nominator?: PodNominator;
  /** The budgets and API writes DefaultPreemption uses; without it preemption only nominates. */
  readonly preemption?: PreemptionHandle;
  /** scheduler_preemption_attempts_total and scheduler_preemption_victims; none recorded without. */
  readonly preemptionMetrics?: PreemptionMetrics;
  /** Storage objects for the volume plugins; defaults to none. */
  readonly volumes?: VolumeListers;
  /** API writes for volume binding; defaults to one that refuses. */
  readonly volumeWriter?: VolumeWriter;
}

/** A plugin's `pluginConfig` args; `{}` when the profile configures none. */
export type PluginArgs = Readonly<Record<string, unknown>>;

export type PluginFactory = (args: PluginArgs, handle: FrameworkHandle) => Plugin;
