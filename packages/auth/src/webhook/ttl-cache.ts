import { LRUCache } from 'lru-cache';

/**
 * A bounded map whose entries expire, as kube's LRUExpireCache is for webhook answers: reading an
 * entry makes it the most recently used, past `maxEntries` the least recently used one goes, and
 * an entry is still good at the very moment it expires (kube compares with After). A thin layer
 * over lru-cache, which keeps the per-entry TTLs; this adds the kube meaning of a zero TTL
 * (cache nothing) and a clock tests can move (one that never reads 0: lru-cache takes a start
 * time of 0 for "no TTL").
 */
export class TtlCache<V extends object> {
  /**
   * Made at the first set: lru-cache allocates its arrays for `maxEntries` up front (a token
   * cache of 131,072 entries costs milliseconds and megabytes), which a daemon would otherwise pay
   * at start-up for a cache it may never fill.
   */
  private entries: LRUCache<string, V> | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    return this.entries?.get(key);
  }

  /** A ttl of 0 or less caches nothing, as a zero --*-ttl flag means in kube. */
  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) {
      this.entries?.delete(key);
      return;
    }
    this.entries ??= new LRUCache<string, V>({
      max: this.maxEntries,
      perf: { now: this.now },
      // lru-cache otherwise memoises the clock for a millisecond, which a test's clock outruns.
      ttlResolution: 0,
    });
    this.entries.set(key, value, { ttl: ttlMs });
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}
