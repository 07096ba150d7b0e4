import type { QueuedPodInfo } from '../framework/interface.js';
import type { MaybeStatus } from '../framework/status.js';
import type { Pod } from '../framework/types.js';
import type { Clock } from './clock.js';

/**
 * A change in the cluster that may make unschedulable pods schedulable (kube's ClusterEvent,
 * reduced to what Keel's plugins care about). `label` is for logs, e.g. `NodeAdd`.
 */
export interface ClusterEvent {
  /** `Node`, `Pod`, or `*` for any. */
  readonly resource: string;
  /** `Add`, `Update`, `Delete`, or `*` for any. */
  readonly action: string;
  readonly label: string;
}

export const NODE_ADD: ClusterEvent = { resource: 'Node', action: 'Add', label: 'NodeAdd' };
export const NODE_UPDATE: ClusterEvent = { resource: 'Node', action: 'Update', label: 'NodeUpdate' };
export const ASSIGNED_POD_DELETE: ClusterEvent = {
  resource: 'Pod',
  action: 'Delete',
  label: 'AssignedPodDelete',
};
export const ASSIGNED_POD_ADD: ClusterEvent = { resource: 'Pod', action: 'Add', label: 'AssignedPodAdd' };
export const ASSIGNED_POD_UPDATE: ClusterEvent = {
  resource: 'Pod',
  action: 'Update',
  label: 'AssignedPodUpdate',
};
/** A preemptor's background preemption (its victims' deletion) finished. */
export const PREEMPTION_DONE: ClusterEvent = { resource: 'Pod', action: 'Delete', label: 'PreemptionDone' };
export const UNSCHEDULABLE_TIMEOUT: ClusterEvent = {
  resource: '*',
  action: '*',
  label: 'UnschedulableTimeout',
};

/** Where a pod is waiting; for status pages and tests. */
export type QueueName = 'active' | 'backoff' | 'unschedulable';

/**
 * kube's SchedulingQueue. Pods go active → (popped, in flight) → done, or back through backoff or
 * unschedulable. The methods below the line are for debugging and tests.
 */
export interface SchedulingQueue {
  /** A new pending pod (or one seen again on resync): queued active, or unschedulable if gated. */
  add(pod: Pod): void;
  /** A pending pod changed; an unschedulable pod whose spec changed gets another try. */
  update(oldPod: Pod | undefined, newPod: Pod): void;
  /** The pod is gone (or assigned): removed from every queue, and dropped if its cycle fails. */
  delete(pod: Pod): void;
  /** The next pod to schedule; waits until there is one. Undefined once closed or aborted. */
  pop(signal?: AbortSignal): Promise<QueuedPodInfo | undefined>;
  /** The pod's scheduling attempt (cycle and binding) is over. Call after `addUnschedulable`. */
  done(pod: Pod): void;
  /**
   * Puts back a pod whose cycle failed. Set `pInfo.unschedulablePlugins` first (empty for errors).
   * `podSchedulingCycle` is the cycle it was popped in (`schedulingCycle()` right after `pop`).
   */
  addUnschedulable(pInfo: QueuedPodInfo, podSchedulingCycle: number): void;
  /** A cluster event: unschedulable pods (those passing `preCheck`) go to backoff or active. */
  moveAllToActiveOrBackoff(event: ClusterEvent, preCheck?: (pod: Pod) => boolean): void;
  /**
   * A narrower event (a pod was bound or relabelled): only the unschedulable pods `select` picks
   * move, and only a move marks the current cycle, so frequent bindings do not send every failing
   * pod to backoff (kube's AssignedPodAdded with getUnschedulablePodsWithMatchingAffinityTerm).
   */
  movePodsAffectedBy(event: ClusterEvent, select: (p: QueuedPodInfo) => boolean): void;
  /**
   * A pod PreEnqueue held back may pass now (its preemption finished): it goes through PreEnqueue
   * again, then to backoff or active. Nothing happens to a pod that is not held back.
   */
  reconsiderHeld(pod: Pod, event: ClusterEvent): void;
  /** The current scheduling cycle number. */
  schedulingCycle(): number;
  /** Starts the flush loops (backoff every second, unschedulable leftovers every 30 s). */
  run(): void;
  /** Stops the loops and wakes every `pop` with undefined. */
  close(): void;
  // ---- debugging and tests
  /** Where each pending pod is (in-flight pods are in none). */
  pendingPods(): { readonly pod: Pod; readonly queue: QueueName }[];
  /** The pods in the unschedulable pods (gated ones included), for scheduler_unschedulable_pods. */
  unschedulablePodInfos(): readonly QueuedPodInfo[];
  flushBackoffQCompleted(): void;
  flushUnschedulablePodsLeftover(): void;
}

export interface PriorityQueueOptions {
  /** The QueueSort plugin's order (`Framework.queueSortLess()`); all profiles share it. */
  readonly less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
  /** The pod's profile's PreEnqueue plugins (`Framework.runPreEnqueuePlugins`); a rejection gates it. */
  readonly preEnqueue?: (pod: Pod) => MaybeStatus;
  readonly clock?: Clock;
  /** `podInitialBackoffSeconds` × 1000. */
  readonly initialBackoffMs?: number;
  /** `podMaxBackoffSeconds` × 1000. */
  readonly maxBackoffMs?: number;
  /** `--pod-max-in-unschedulable-pods-duration`. */
  readonly maxInUnschedulableMs?: number;
  readonly backoffFlushIntervalMs?: number;
  readonly unschedulableFlushIntervalMs?: number;
  /** A pod entered `queue` because of `event` (scheduler_queue_incoming_pods_total). */
  readonly onIncoming?: (queue: IncomingQueue, event: string) => void;
}

/** The queue label of scheduler_queue_incoming_pods_total. */
export type IncomingQueue = 'active' | 'backoff' | 'unschedulable' | 'gated';

export const QUEUE_DEFAULTS = {
  initialBackoffMs: 1_000,
  maxBackoffMs: 10_000,
  maxInUnschedulableMs: 5 * 60_000,
  backoffFlushIntervalMs: 1_000,
  unschedulableFlushIntervalMs: 30_000,
} as const;
