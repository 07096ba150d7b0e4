import type { QueuedPodInfo } from '../framework/interface.js';

/**
 * Pods that were found unschedulable, or are gated, waiting for a cluster event (or, for the
 * non-gated ones, for the leftover flush) to move them back.
 */
export class UnschedulablePods {
  private readonly pods = new Map<string, QueuedPodInfo>();

  addOrUpdate(p: QueuedPodInfo): void {
    this.pods.set(p.key, p);
  }

  get(key: string): QueuedPodInfo | undefined {
    return this.pods.get(key);
  }

  has(key: string): boolean {
    return this.pods.has(key);
  }

  delete(key: string): QueuedPodInfo | undefined {
    const p = this.pods.get(key);
    this.pods.delete(key);
    return p;
  }

  /** A copy, so callers may move pods out while iterating. */
  list(): QueuedPodInfo[] {
    return [...this.pods.values()];
  }

  get size(): number {
    return this.pods.size;
  }
}
