import type { QueuedPodInfo } from '../framework/interface.js';
import { podName, type Pod } from '../framework/types.js';
import { ActiveQueue } from './active-queue.js';
import { BackoffQueue } from './backoff-queue.js';
import { realTimeout, systemClock, type CancelTimer, type Clock } from './clock.js';
import {
  QUEUE_DEFAULTS,
  UNSCHEDULABLE_TIMEOUT,
  type ClusterEvent,
  type PriorityQueueOptions,
  type QueueName,
  type SchedulingQueue,
} from './scheduling-queue.js';
import { UnschedulablePods } from './unschedulable-pods.js';

/** kube's event labels for scheduler_queue_incoming_pods_total that are not cluster events. */
const INCOMING = {
  podAdd: 'PodAdd',
  podUpdate: 'PodUpdate',
  attemptFailure: 'ScheduleAttemptFailure',
  backoffComplete: 'BackoffComplete',
} as const;

interface Waiter {
  readonly resolve: (p: QueuedPodInfo | undefined) => void;
  readonly detach: () => void;
}

/** Whether anything but status and bookkeeping metadata changed (kube's isPodUpdated). */
function isPodUpdated(oldPod: Pod | undefined, newPod: Pod): boolean {
  if (!oldPod) return true;
  const strip = (p: Pod) => {
    const { resourceVersion: _rv, generation: _g, managedFields: _mf, ...metadata } = p.metadata;
    return JSON.stringify({ ...p, metadata, status: undefined });
  };
  return strip(oldPod) !== strip(newPod);
}

/**
 * kube's PriorityQueue: the active queue (QueueSort order), the backoff queue and the unschedulable
 * pods. Cluster events during a pod's cycle are caught with kube's moveRequestCycle: a pod that fails
 * in a cycle that started before the last move goes to backoff, not unschedulable, so the event is
 * not lost. (kube's newer per-event queueing hints are not implemented: every move moves every
 * non-gated pod that passes `preCheck`.) A pod updated during its cycle retries with its newest
 * object; a pod deleted during its cycle is dropped.
 */
export class PriorityQueue implements SchedulingQueue {
  private readonly clock: Clock;
  private readonly opts: Required<Omit<PriorityQueueOptions, 'preEnqueue' | 'clock' | 'less' | 'onIncoming'>>;
  private readonly active: ActiveQueue;
  private readonly backoff: BackoffQueue;
  private readonly unschedulable = new UnschedulablePods();
  private waiters: Waiter[] = [];
  private timers: CancelTimer[] = [];
  private closed = false;

  constructor(private readonly options: PriorityQueueOptions) {
    this.clock = options.clock ?? systemClock;
    this.opts = {
      initialBackoffMs: options.initialBackoffMs ?? QUEUE_DEFAULTS.initialBackoffMs,
      maxBackoffMs: options.maxBackoffMs ?? QUEUE_DEFAULTS.maxBackoffMs,
      maxInUnschedulableMs: options.maxInUnschedulableMs ?? QUEUE_DEFAULTS.maxInUnschedulableMs,
      backoffFlushIntervalMs: options.backoffFlushIntervalMs ?? QUEUE_DEFAULTS.backoffFlushIntervalMs,
      unschedulableFlushIntervalMs:
        options.unschedulableFlushIntervalMs ?? QUEUE_DEFAULTS.unschedulableFlushIntervalMs,
    };
    this.active = new ActiveQueue(options.less);
    this.backoff = new BackoffQueue(this.opts.initialBackoffMs, this.opts.maxBackoffMs);
  }

  private newPodInfo(pod: Pod): QueuedPodInfo {
    return {
      pod,
      key: podName(pod),
      timestamp: this.clock.now(),
      attempts: 0,
      initialAttemptTimestamp: undefined,
      unschedulablePlugins: new Set(),
      gated: false,
    };
  }

  /** Runs PreEnqueue: a gated pod waits in unschedulable, the rest go active. */
  private toActive(p: QueuedPodInfo, event: string): void {
    p.gated = !!this.options.preEnqueue?.(p.pod);
    if (p.gated) {
      this.unschedulable.addOrUpdate(p);
      this.options.onIncoming?.('gated', event);
      return;
    }
    this.active.add(p);
    this.options.onIncoming?.('active', event);
    this.wake();
  }

  private toActiveOrBackoff(p: QueuedPodInfo, event: string): void {
    if (this.backoff.isBackingOff(p, this.clock.now())) {
      this.backoff.add(p);
      this.options.onIncoming?.('backoff', event);
    } else this.toActive(p, event);
  }

  add(pod: Pod): void {
    const key = podName(pod);
    const flight = this.active.flight(pod, key);
    if (flight && !flight.deleted) {
      flight.updated = pod;
      return;
    }
    this.unschedulable.delete(key);
    this.backoff.delete(key);
    this.toActive(this.newPodInfo(pod), INCOMING.podAdd);
  }

  update(oldPod: Pod | undefined, newPod: Pod): void {
    const key = podName(newPod);
    const queued = this.active.get(key) ?? this.backoff.get(key);
    if (queued) {
      queued.pod = newPod;
      if (this.active.has(key)) this.active.add(queued);
      else this.backoff.add(queued);
      return;
    }
    const waiting = this.unschedulable.get(key);
    if (waiting) {
      waiting.pod = newPod;
      if (!isPodUpdated(oldPod, newPod)) return;
      this.unschedulable.delete(key);
      this.toActiveOrBackoff(waiting, INCOMING.podUpdate);
      return;
    }
    this.add(newPod);
  }

  delete(pod: Pod): void {
    const key = podName(pod);
    this.active.delete(key);
    this.backoff.delete(key);
    this.unschedulable.delete(key);
    const flight = this.active.flight(pod, key);
    if (flight) flight.deleted = true;
  }

  pop(signal?: AbortSignal): Promise<QueuedPodInfo | undefined> {
    if (this.closed || signal?.aborted) return Promise.resolve(undefined);
    const p = this.active.pop(this.clock.now());
    if (p) return Promise.resolve(p);
    return new Promise((resolve) => {
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(undefined);
      };
      const waiter: Waiter = { resolve, detach: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Hands pods to waiting `pop` calls, first come first served. */
  private wake(): void {
    while (this.waiters.length > 0 && this.active.size > 0) {
      const w = this.waiters.shift() as Waiter;
      w.detach();
      w.resolve(this.active.pop(this.clock.now()));
    }
  }

  done(pod: Pod): void {
    this.active.done(pod, podName(pod));
  }

  addUnschedulable(pInfo: QueuedPodInfo, podSchedulingCycle: number): void {
    const key = pInfo.key;
    const flight = this.active.flight(pInfo.pod, key);
    if (flight?.deleted) return;
    if (this.active.has(key) || this.backoff.has(key) || this.unschedulable.has(key)) return;
    if (flight?.updated) pInfo.pod = flight.updated;
    pInfo.timestamp = this.clock.now();
    pInfo.gated = !!this.options.preEnqueue?.(pInfo.pod);
    const retrySoon =
      this.active.moveRequestCycle >= podSchedulingCycle ||
      pInfo.unschedulablePlugins.size === 0 ||
      flight?.updated !== undefined;
    if (retrySoon && !pInfo.gated) {
      this.backoff.add(pInfo);
      this.options.onIncoming?.('backoff', INCOMING.attemptFailure);
    } else {
      this.unschedulable.addOrUpdate(pInfo);
      this.options.onIncoming?.(pInfo.gated ? 'gated' : 'unschedulable', INCOMING.attemptFailure);
    }
  }

  moveAllToActiveOrBackoff(event: ClusterEvent, preCheck?: (pod: Pod) => boolean): void {
    for (const p of this.unschedulable.list()) {
      if (p.gated || (preCheck && !preCheck(p.pod))) continue;
      this.unschedulable.delete(p.key);
      this.toActiveOrBackoff(p, event.label);
    }
    this.active.moveRequestCycle = this.active.schedulingCycle;
  }

  movePodsAffectedBy(event: ClusterEvent, select: (p: QueuedPodInfo) => boolean): void {
    if (this.unschedulable.size === 0) return;
    let moved = false;
    for (const p of this.unschedulable.list()) {
      if (p.gated || !select(p)) continue;
      this.unschedulable.delete(p.key);
      this.toActiveOrBackoff(p, event.label);
      moved = true;
    }
    if (moved) this.active.moveRequestCycle = this.active.schedulingCycle;
  }

  reconsiderHeld(pod: Pod, event: ClusterEvent): void {
    const p = this.unschedulable.get(podName(pod));
    if (!p?.gated || this.options.preEnqueue?.(p.pod)) return;
    this.unschedulable.delete(p.key);
    p.gated = false;
    this.toActiveOrBackoff(p, event.label);
  }

  schedulingCycle(): number {
    return this.active.schedulingCycle;
  }

  flushBackoffQCompleted(): void {
    for (const p of this.backoff.popCompleted(this.clock.now())) this.toActive(p, INCOMING.backoffComplete);
  }

  flushUnschedulablePodsLeftover(): void {
    const now = this.clock.now();
    const stale = this.unschedulable
      .list()
      .filter((p) => !p.gated && now - p.timestamp > this.opts.maxInUnschedulableMs);
    if (stale.length === 0) return;
    const keys = new Set(stale.map((p) => p.key));
    this.moveAllToActiveOrBackoff(UNSCHEDULABLE_TIMEOUT, (pod) => keys.has(podName(pod)));
  }

  run(): void {
    if (this.closed || this.timers.length > 0) return;
    this.every(this.opts.backoffFlushIntervalMs, () => this.flushBackoffQCompleted());
    this.every(this.opts.unschedulableFlushIntervalMs, () => this.flushUnschedulablePodsLeftover());
  }

  private every(ms: number, fn: () => void): void {
    const set = this.clock.setTimeout?.bind(this.clock) ?? realTimeout;
    const slot = this.timers.length;
    const tick = () => {
      if (this.closed) return;
      fn();
      this.timers[slot] = set(tick, ms);
    };
    this.timers.push(set(tick, ms));
  }

  close(): void {
    this.closed = true;
    for (const cancel of this.timers) cancel();
    this.timers = [];
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) {
      w.detach();
      w.resolve(undefined);
    }
  }

  pendingPods(): { readonly pod: Pod; readonly queue: QueueName }[] {
    return [
      ...this.active.values().map((p) => ({ pod: p.pod, queue: 'active' as const })),
      ...this.backoff.values().map((p) => ({ pod: p.pod, queue: 'backoff' as const })),
      ...this.unschedulable.list().map((p) => ({ pod: p.pod, queue: 'unschedulable' as const })),
    ];
  }

  unschedulablePodInfos(): readonly QueuedPodInfo[] {
    return this.unschedulable.list();
  }

  /** Pods popped whose attempt has not been marked done. */
  inFlightCount(): number {
    return this.active.inFlightCount();
  }
}
