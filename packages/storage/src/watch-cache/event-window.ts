import type { LogEntry } from '../backend.js';

/** Upstream's bounds for a cache whose size is not set (watch_cache.go, 1.19+). */
export const DEFAULT_WINDOW = 100;
export const MAX_WINDOW = 100 * 1024;
/** Events younger than this are worth keeping: a full window of them makes it grow. */
export const EVENT_FRESH_MS = 75_000;

export interface EventWindowOptions {
  /** Events kept; with `maxCapacity` above it, the first size of a window that adapts. */
  readonly capacity: number;
  /** Upper bound of an adaptive window; equal to `capacity` (the default) for a fixed one. */
  readonly maxCapacity?: number;
  readonly now?: () => number;
}

export type WindowRead =
  | { readonly kind: 'ok'; readonly entries: readonly LogEntry[] }
  /** `oldest` is the version the window can resume from (upstream's `oldest - 1`). */
  | { readonly kind: 'expired'; readonly oldest: number };

/**
 * The recent events of one cached resource, oldest first: kube's watchCache ring buffer. A watch
 * resumes from any version inside it; one older than it gets 410. An adaptive window (no size
 * set, as upstream) doubles while a full window holds only fresh events and halves when its
 * newest quarter is already stale, between `capacity` and `maxCapacity`.
 */
export class EventWindow {
  private entries: LogEntry[] = [];
  private times: number[] = [];
  private head = 0;
  private cap: number;
  private readonly minCap: number;
  private readonly maxCap: number;
  private readonly now: () => number;
  /** Whether an event was ever dropped: until then the window reaches back to where it started. */
  private evicted = false;

  constructor(
    /** The version the window starts after (the cache's fill revision). */
    private readonly startRV: number,
    opts: EventWindowOptions,
  ) {
    this.cap = this.minCap = Math.max(1, opts.capacity);
    this.maxCap = Math.max(this.cap, opts.maxCapacity ?? this.cap);
    this.now = opts.now ?? Date.now;
  }

  get capacity(): number {
    return this.cap;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  push(entry: LogEntry): void {
    const now = this.now();
    this.resize(now);
    if (this.size >= this.cap) {
      this.head++;
      this.evicted = true;
    }
    this.entries.push(entry);
    this.times.push(now);
    // Reclaim the array once the dropped part dominates, keeping pushes amortised O(1).
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }

  private resize(now: number): void {
    if (this.size < this.cap || this.minCap === this.maxCap) return;
    const oldest = this.times[this.head] ?? now;
    if (now - oldest < EVENT_FRESH_MS) {
      this.cap = Math.min(this.cap * 2, this.maxCap);
      return;
    }
    const quarter = this.times[this.entries.length - Math.floor(this.cap / 4)] ?? now;
    if (now - quarter > EVENT_FRESH_MS && this.cap > this.minCap) {
      this.cap = Math.max(Math.floor(this.cap / 2), this.minCap);
      if (this.size > this.cap) {
        this.head = this.entries.length - this.cap;
        this.evicted = true;
      }
    }
  }

  /**
   * The oldest version a watch can resume after: the start before anything was dropped, else
   * one before the oldest event kept (upstream compares with `oldest - 1` the same way).
   */
  get resumableFrom(): number {
    if (!this.evicted) return this.startRV;
    const first = this.entries[this.head];
    return first ? first.rv - 1 : this.startRV;
  }

  /** Whether a watch after `rv` can be served without the events before the window began. */
  covers(rv: number): boolean {
    return this.evicted || rv >= this.startRV;
  }

  /** Up to `limit` events with rv > afterRV, or expired when some were dropped. */
  read(afterRV: number, limit: number): WindowRead {
    const oldest = this.resumableFrom;
    if (afterRV < oldest) return { kind: 'expired', oldest };
    let lo = this.head;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.entries[mid] as LogEntry).rv <= afterRV) lo = mid + 1;
      else hi = mid;
    }
    return { kind: 'ok', entries: this.entries.slice(lo, lo + limit) };
  }
}
