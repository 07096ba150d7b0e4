import type { SchedulerCache } from '../cache/cache.js';
import type { Extenders } from '../extender/extenders.js';
import type { CycleState } from '../framework/cycle-state.js';
import type { Framework } from '../framework/framework.js';
import type { QueuedPodInfo } from '../framework/interface.js';
import { Status, type MaybeStatus } from '../framework/status.js';
import { podUid, type Pod } from '../framework/types.js';
import { ASSIGNED_POD_DELETE, type SchedulingQueue } from '../queue/scheduling-queue.js';
import type { Nominator } from './nominator.js';
import { isTerminating, schedulerNameOf } from './pod-filters.js';
import type { PodScheduler, ScheduleOutcome } from './schedule-one.js';

/** The PodScheduled condition's reason: `Unschedulable` for rejections, `SchedulerError` otherwise. */
export type FailureReason = 'Unschedulable' | 'SchedulerError';

export interface SchedulerLoopDeps {
  readonly queue: SchedulingQueue;
  readonly cache: SchedulerCache;
  /** One framework per profile, by scheduler name. */
  readonly frameworks: ReadonlyMap<string, Framework>;
  readonly podScheduler: PodScheduler;
  /** Extenders with a bind verb bind instead of the bind plugins (kube's extendersBinding). */
  readonly extenders?: Extenders;
  /** Nominated pods: preemption adds the preemptor, assuming a pod drops it. */
  readonly nominator?: Nominator;
  /** After a successful binding: record the `Scheduled` event. */
  onScheduled?(pod: Pod, nodeName: string, profile: string): void;
  /**
   * After a failed cycle or binding: record `FailedScheduling` and patch the PodScheduled condition
   * with `message`, and set `status.nominatedNodeName` when it is a string ('' clears it). The
   * pod is already back in the queue.
   */
  onFailure?(
    pod: Pod,
    reason: FailureReason,
    message: string,
    profile: string,
    nominatedNodeName?: string,
  ): void;
  /** Pods popped that this scheduler cannot handle (no such profile, terminating, assumed). */
  onSkipped?(pod: Pod, why: string): void;
  /** A callback above threw during a background binding. */
  onError?(err: unknown): void;
  /** How long a successful scheduling algorithm run took (kube's SchedulingAlgorithmLatency). */
  observeAlgorithm?(seconds: number): void;
}

/** Runs the framework's bind plugins until one does not Skip (kube's RunBindPlugins). */
export async function runBindPlugins(
  fwk: Framework,
  state: CycleState,
  pod: Pod,
  nodeName: string,
  signal?: AbortSignal,
): Promise<MaybeStatus> {
  const start = performance.now();
  const status = await bindWithPlugins(fwk, state, pod, nodeName, signal);
  fwk.metrics.observePoint('Bind', status, start);
  return status;
}

async function bindWithPlugins(
  fwk: Framework,
  state: CycleState,
  pod: Pod,
  nodeName: string,
  signal?: AbortSignal,
): Promise<MaybeStatus> {
  for (const pl of fwk.bindPlugins) {
    let s: MaybeStatus;
    const t = state.recordPluginMetrics ? performance.now() : 0;
    try {
      s = await pl.bind(state, pod, nodeName, signal);
    } catch (err) {
      s = Status.fromError(err);
    }
    if (t !== 0) fwk.metrics.observePlugin(pl.name, 'Bind', s, t);
    if (s?.isSkip()) continue;
    return s && !s.isSuccess() ? s.withPlugin(pl.name) : undefined;
  }
  return Status.fromError(new Error('no bind plugin bound the pod'));
}

/**
 * One turn of kube's ScheduleOne: pop a pod, run its scheduling cycle (synchronous unless
 * extenders are called), assume it on the chosen node and start binding in the background (the
 * returned promise does not wait for it; `bindings` collects it for shutdown). Resolves false once
 * the queue is closed or `signal` aborts.
 */
export async function scheduleOne(
  deps: SchedulerLoopDeps,
  signal?: AbortSignal,
  bindings?: Set<Promise<void>>,
): Promise<boolean> {
  const pInfo = await deps.queue.pop(signal);
  if (!pInfo) return false;
  const pod = pInfo.pod;
  const profile = schedulerNameOf(pod);
  const fwk = deps.frameworks.get(profile);
  if (!fwk || isTerminating(pod) || deps.cache.isAssumed(pod)) {
    deps.onSkipped?.(
      pod,
      !fwk ? `no profile for scheduler name ${JSON.stringify(profile)}` : 'terminating or assumed',
    );
    deps.queue.done(pod);
    return true;
  }
  const cycle = deps.queue.schedulingCycle();
  const start = performance.now();
  const outcome = await deps.podScheduler.schedule(fwk, deps.cache.snapshot(), pod);
  if (!outcome.ok) {
    const { message, nominatedNodeName } = await runPostFilter(deps, fwk, pod, outcome);
    pInfo.unschedulablePlugins = new Set(outcome.unschedulablePlugins);
    deps.queue.addUnschedulable(pInfo, cycle);
    deps.queue.done(pod);
    deps.onFailure?.(
      pod,
      outcome.status.isRejected() ? 'Unschedulable' : 'SchedulerError',
      message,
      profile,
      nominatedNodeName,
    );
    return true;
  }
  deps.observeAlgorithm?.((performance.now() - start) / 1000);
  const host = outcome.result.suggestedHost;
  try {
    deps.cache.assumePod(pod, host);
    deps.nominator?.delete(pod);
  } catch (err) {
    // The cache already holds the pod (bound meanwhile by someone else): retry after a backoff.
    pInfo.unschedulablePlugins = new Set();
    deps.queue.addUnschedulable(pInfo, cycle);
    deps.queue.done(pod);
    deps.onFailure?.(pod, 'SchedulerError', err instanceof Error ? err.message : String(err), profile);
    return true;
  }
  // kube's RunReservePluginsReserve: volumes are claimed for this node before the next cycle runs.
  const reserved = fwk.runReservePluginsReserve(outcome.state, pod, host);
  if (reserved) {
    fwk.runReservePluginsUnreserve(outcome.state, pod, host);
    deps.cache.forgetPod(pod);
    pInfo.unschedulablePlugins = reserved.isRejected() ? new Set([reserved.plugin]) : new Set();
    deps.queue.addUnschedulable(pInfo, cycle);
    deps.queue.done(pod);
    deps.onFailure?.(
      pod,
      reserved.isRejected() ? 'Unschedulable' : 'SchedulerError',
      reserved.message(),
      profile,
    );
    return true;
  }
  const binding = bind(deps, fwk, outcome.state, pInfo, host, cycle, signal).catch((err: unknown) =>
    deps.onError?.(err),
  );
  if (bindings) {
    bindings.add(binding);
    void binding.finally(() => bindings.delete(binding));
  }
  return true;
}

/**
 * kube's schedulingCycle after a FitError: the PostFilter plugins (preemption) run, their message
 * joins the FitError's, and a nomination they make is recorded at once (kube's AddNominatedPod)
 * and returned for the status patch. It may wait for extenders with a preempt verb; pods that
 * were scheduled never get here.
 */
async function runPostFilter(
  deps: SchedulerLoopDeps,
  fwk: Framework,
  pod: Pod,
  outcome: Extract<ScheduleOutcome, { ok: false }>,
): Promise<{ message: string; nominatedNodeName?: string }> {
  const { fitError, state } = outcome;
  if (!fitError || !state || !fwk.hasPostFilterPlugins()) return { message: outcome.message };
  const post = await fwk.runPostFilterPlugins(state, pod, fitError.diagnosis.nodeToStatus);
  fitError.diagnosis.postFilterMsg = post.status.message();
  const nominated = post.result?.nominatedNodeName;
  if (nominated !== undefined) deps.nominator?.addNominatedPod(pod, nominated);
  return { message: fitError.text(), ...(nominated !== undefined ? { nominatedNodeName: nominated } : {}) };
}

async function bind(
  deps: SchedulerLoopDeps,
  fwk: Framework,
  state: CycleState,
  pInfo: QueuedPodInfo,
  host: string,
  cycle: number,
  signal?: AbortSignal,
): Promise<void> {
  const pod = pInfo.pod;
  // kube's bindingCycle: PreBind, then an extender with a bind verb or the bind plugins.
  const preBind = await fwk.runPreBindPlugins(state, pod, host, signal);
  const byExtender = preBind ? undefined : await deps.extenders?.bind(pod, host);
  const status =
    preBind ??
    (byExtender?.bound
      ? byExtender.error && Status.fromError(byExtender.error)
      : await runBindPlugins(fwk, state, pod, host, signal));
  if (!status) {
    deps.queue.done(pod);
    deps.onScheduled?.(pod, host, fwk.profileName);
    return;
  }
  // kube's handleBindingCycleError: the pod retries after a backoff, and its release of the node's
  // resources is an event for the others (but not for itself).
  fwk.runReservePluginsUnreserve(state, pod, host);
  deps.cache.forgetPod(pod);
  pInfo.unschedulablePlugins = new Set();
  deps.queue.addUnschedulable(pInfo, cycle);
  const uid = podUid(pod);
  deps.queue.moveAllToActiveOrBackoff(ASSIGNED_POD_DELETE, (p) => podUid(p) !== uid);
  deps.queue.done(pod);
  const message = preBind ? preBind.message() : `Binding rejected: ${status.message()}`;
  deps.onFailure?.(pod, 'SchedulerError', message, fwk.profileName);
}

/** Resolves after the event loop has run its pending I/O callbacks once. */
const yieldToIO = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Schedules until `signal` aborts or the queue closes, then waits for bindings in progress.
 * kube's ScheduleOne runs in its own goroutine; here a pop from a non-empty queue resolves as a
 * microtask, so without a yield a backlog would be scheduled in one streak during which no binding
 * is sent or answered and no watch event arrives (each binding then opening its own connection).
 */
export async function runSchedulerLoop(deps: SchedulerLoopDeps, signal: AbortSignal): Promise<void> {
  const bindings = new Set<Promise<void>>();
  while (await scheduleOne(deps, signal, bindings)) await yieldToIO();
  await Promise.allSettled([...bindings]);
}
