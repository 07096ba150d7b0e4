import type { QueuedPodInfo } from '../framework/interface.js';
import { podUid, type Pod } from '../framework/types.js';
import type { PendingQueue } from '../server/metrics.js';
import type { ClusterEvent, SchedulingQueue } from '../queue/scheduling-queue.js';

/** What one finished attempt measured, in seconds. */
export interface AttemptTiming {
  /** Since the pod was popped for this attempt (cycle plus binding). */
  readonly attemptSeconds: number;
  /** Since its first attempt (kube's pod_scheduling_sli_duration start). */
  readonly sinceFirstAttemptSeconds: number;
  readonly attempts: number;
}

/**
 * The scheduling queue with a stopwatch: it notes when each pod is popped, so the loop's
 * callbacks, which see only the pod, can report the attempt's latency and attempt count. Every
 * other call goes straight to the queue.
 */
export class TimedQueue implements SchedulingQueue {
  private readonly started = new Map<string, { readonly at: number; readonly info: QueuedPodInfo }>();

  constructor(
    private readonly inner: SchedulingQueue,
    /** Must be the queue's clock: `initialAttemptTimestamp` is on it. */
    private readonly now: () => number = Date.now,
  ) {}

  async pop(signal?: AbortSignal): Promise<QueuedPodInfo | undefined> {
    const info = await this.inner.pop(signal);
    if (info) this.started.set(podUid(info.pod), { at: this.now(), info });
    return info;
  }

  /** Ends the pod's attempt: its timings, or undefined when it was not popped through this queue. */
  finish(pod: Pod): AttemptTiming | undefined {
    const uid = podUid(pod);
    const s = this.started.get(uid);
    if (!s) return undefined;
    this.started.delete(uid);
    const now = this.now();
    return {
      attemptSeconds: (now - s.at) / 1000,
      sinceFirstAttemptSeconds: (now - (s.info.initialAttemptTimestamp ?? s.at)) / 1000,
      attempts: s.info.attempts,
    };
  }

  /** Pods per queue, as `scheduler_pending_pods` reports them: gated pods apart from the rest. */
  pendingCounts(): Record<PendingQueue, number> {
    const counts: Record<PendingQueue, number> = { active: 0, backoff: 0, unschedulable: 0, gated: 0 };
    for (const { pod, queue } of this.inner.pendingPods()) {
      const gated = queue === 'unschedulable' && (pod.spec.schedulingGates?.length ?? 0) > 0;
      counts[gated ? 'gated' : queue]++;
    }
    return counts;
  }

  add(pod: Pod): void {
    this.inner.add(pod);
  }

  update(oldPod: Pod | undefined, newPod: Pod): void {
    this.inner.update(oldPod, newPod);
  }

  delete(pod: Pod): void {
    this.inner.delete(pod);
  }

  done(pod: Pod): void {
    this.inner.done(pod);
  }

  addUnschedulable(pInfo: QueuedPodInfo, podSchedulingCycle: number): void {
    this.inner.addUnschedulable(pInfo, podSchedulingCycle);
  }

  moveAllToActiveOrBackoff(event: ClusterEvent, preCheck?: (pod: Pod) => boolean): void {
    this.inner.moveAllToActiveOrBackoff(event, preCheck);
  }

  movePodsAffectedBy(event: ClusterEvent, select: (p: QueuedPodInfo) => boolean): void {
    this.inner.movePodsAffectedBy(event, select);
  }

  reconsiderHeld(pod: Pod, event: ClusterEvent): void {
    this.inner.reconsiderHeld(pod, event);
  }

  schedulingCycle(): number {
    return this.inner.schedulingCycle();
  }

  run(): void {
    this.inner.run();
  }

  close(): void {
    this.inner.close();
    this.started.clear();
  }

  pendingPods(): { readonly pod: Pod; readonly queue: 'active' | 'backoff' | 'unschedulable' }[] {
    return this.inner.pendingPods();
  }

  unschedulablePodInfos(): readonly QueuedPodInfo[] {
    return this.inner.unschedulablePodInfos();
  }

  flushBackoffQCompleted(): void {
    this.inner.flushBackoffQCompleted();
  }

  flushUnschedulablePodsLeftover(): void {
    this.inner.flushUnschedulablePodsLeftover();
  }
}
