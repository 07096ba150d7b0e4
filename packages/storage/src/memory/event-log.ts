import type { LogEntry } from '../backend.js';

/**
 * The memory backend's history: entries in resourceVersion order, the in-process equivalent of
 * the Redis stream. Compaction drops a prefix; `compacted` is the newest dropped version, so
 * reads "after N" are possible exactly when N >= compacted.
 */
export class EventLog {
  private entries: LogEntry[] = [];
  private head = 0;
  private compactedRV = 0;

  get compacted(): number {
    return this.compactedRV;
  }

  append(entry: LogEntry): void {
    this.entries.push(entry);
  }

  /** Index of the first entry with rv > `rv` (binary search). */
  private firstAfter(rv: number): number {
    let lo = this.head;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Up to `limit` entries with rv > afterRV. */
  read(afterRV: number, limit: number): LogEntry[] {
    const from = this.firstAfter(afterRV);
    return this.entries.slice(from, from + limit);
  }

  /** Every entry with rv > afterRV, oldest first. */
  *since(afterRV: number): IterableIterator<LogEntry> {
    for (let i = this.firstAfter(afterRV); i < this.entries.length; i++) yield this.entries[i]!;
  }

  compact(rv: number): void {
    if (rv <= this.compactedRV) return;
    this.compactedRV = rv;
    this.head = this.firstAfter(rv);
    // Reclaim the array once the dropped part dominates, keeping compaction amortised O(1).
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
