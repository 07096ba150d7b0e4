import type { QueuedPodInfo } from '../framework/interface.js';
import { podUid, type Pod } from '../framework/types.js';
import { KeyedHeap } from './heap.js';

/** A pod popped for a cycle that has not finished (`done`) yet, and what happened to it meanwhile. */
export interface InFlight {
  readonly uid: string;
  /** The scheduling cycle it was popped in. */
  readonly cycle: number;
  deleted: boolean;
  /** The newest object, if the pod was updated during its cycle. */
  updated: Pod | undefined;
}

/**
 * The pods ready to be scheduled, in QueueSort order, plus the bookkeeping of the cycles they are
 * popped for (kube's activeQueue: schedulingCycle, inFlightPods, moveRequestCycle).
 */
export class ActiveQueue {
  private readonly heap: KeyedHeap<QueuedPodInfo>;
  private readonly inFlight = new Map<string, InFlight>();
  /** Incremented on every pop. */
  schedulingCycle = 0;
  /** The cycle of the last cluster-event move; a pod popped at or before it retries soon. */
  moveRequestCycle = -1;

  constructor(less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean) {
    this.heap = new KeyedHeap((p) => p.key, less);
  }

  add(p: QueuedPodInfo): void {
    this.heap.addOrUpdate(p);
  }

  has(key: string): boolean {
    return this.heap.has(key);
  }

  get(key: string): QueuedPodInfo | undefined {
    return this.heap.get(key);
  }

  delete(key: string): QueuedPodInfo | undefined {
    return this.heap.delete(key);
  }

  get size(): number {
    return this.heap.size;
  }

  values(): readonly QueuedPodInfo[] {
    return this.heap.values();
  }

  /** Takes the first pod for a new cycle and records it as in flight. */
  pop(now: number): QueuedPodInfo | undefined {
    const p = this.heap.pop();
    if (!p) return undefined;
    p.attempts++;
    p.initialAttemptTimestamp ??= now;
    this.schedulingCycle++;
    this.inFlight.set(p.key, {
      uid: podUid(p.pod),
      cycle: this.schedulingCycle,
      deleted: false,
      updated: undefined,
    });
    return p;
  }

  /** The in-flight record for this pod object (same name and UID), if its cycle is running. */
  flight(pod: Pod, key: string): InFlight | undefined {
    const f = this.inFlight.get(key);
    return f && f.uid === podUid(pod) ? f : undefined;
  }

  done(pod: Pod, key: string): void {
    if (this.flight(pod, key)) this.inFlight.delete(key);
  }

  inFlightCount(): number {
    return this.inFlight.size;
  }
}
