/**
 * A bounded map whose entries expire: what kube's LRUExpireCache does for the review answers.
 * Reading an entry makes it the most recently used (a Map keeps insertion order, so re-inserting
 * moves it to the end); past `maxEntries` the least recently used entry goes. Expired entries are
 * dropped when they are met. Hand-written because this is all the scheduler needs, and a library
 * would be one more dependency to audit for thirty lines.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** A ttl of 0 or less caches nothing, as a zero --*-ttl flag means in kube. */
  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
