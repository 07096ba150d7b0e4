import type { QueuedPodInfo } from '../framework/interface.js';
import { KeyedHeap } from './heap.js';

/**
 * kube's calculateBackoffDuration: initial × 2^(attempts−1), capped at max (doubling without
 * overflowing past the cap).
 */
export function backoffDuration(attempts: number, initialMs: number, maxMs: number): number {
  let d = initialMs;
  for (let i = 1; i < attempts; i++) {
    if (d > maxMs - d) return maxMs;
    d += d;
  }
  return Math.min(d, maxMs);
}

/** Pods that failed recently, ordered by when their backoff ends. */
export class BackoffQueue {
  private readonly heap: KeyedHeap<QueuedPodInfo>;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
  ) {
    this.heap = new KeyedHeap(
      (p) => p.key,
      (a, b) => this.expiry(a) < this.expiry(b),
    );
  }

  /** When the pod's backoff ends: its last enqueue time plus the backoff for its attempts. */
  expiry(p: QueuedPodInfo): number {
    return p.timestamp + backoffDuration(p.attempts, this.initialMs, this.maxMs);
  }

  isBackingOff(p: QueuedPodInfo, now: number): boolean {
    return !p.gated && this.expiry(p) > now;
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

  /** Removes and returns the pods whose backoff ended by `now`, earliest first. */
  popCompleted(now: number): QueuedPodInfo[] {
    const out: QueuedPodInfo[] = [];
    for (let p = this.heap.peek(); p && this.expiry(p) <= now; p = this.heap.peek()) {
      this.heap.pop();
      out.push(p);
    }
    return out;
  }

  get size(): number {
    return this.heap.size;
  }

  values(): readonly QueuedPodInfo[] {
    return this.heap.values();
  }
}
