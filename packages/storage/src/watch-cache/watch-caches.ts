import { tooLargeResourceVersion, type StorageError } from '../errors.js';
import { keyRoot, keyScope } from '../keys.js';
import type { StorageBackend } from '../backend.js';
import type { ListOptions, ListResult } from '../storage.js';
import { DEFAULT_WINDOW, MAX_WINDOW, type EventWindowOptions } from './event-window.js';
import { WatchCache } from './watch-cache.js';

/**
 * --watch-cache-sizes for one key root: false or 0 = not cached; true = cached with upstream's
 * window (100 events, growing while they are recent); a number = cached, that many events kept.
 */
export type WatchCacheSize = boolean | number;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

function windowOf(size: WatchCacheSize): EventWindowOptions | undefined {
  if (size === false || size === 0) return undefined;
  if (size === true) return { capacity: DEFAULT_WINDOW, maxCapacity: MAX_WINDOW };
  return { capacity: size };
}

/**
 * The watch caches of one store, one per cached key root, made on the first list or watch of
 * the root, and what may be served from them. A cache whose feed lost events is dropped (the
 * next read makes a new one); until then reads it cannot serve go to the store.
 */
export class WatchCaches {
  private readonly caches = new Map<string, WatchCache>();

  constructor(
    private readonly backend: StorageBackend,
    private readonly sizeOf: ((keyRoot: string) => WatchCacheSize) | undefined,
    private readonly waitMs: number,
  ) {}

  /** Whether reads under `prefix` may be served from a cache. */
  enabled(prefix: string): boolean {
    const root = keyRoot(prefix);
    return root !== '' && this.sizeOf !== undefined && windowOf(this.sizeOf(root)) !== undefined;
  }

  /** The filled cache of the root of `prefix`, waiting for it to fill as upstream's reads do. */
  private async filled(prefix: string): Promise<WatchCache | undefined> {
    const root = keyRoot(prefix);
    const window = this.sizeOf && root !== '' ? windowOf(this.sizeOf(root)) : undefined;
    if (!window) return undefined;
    let cache = this.caches.get(root);
    if (!cache) {
      const created = new WatchCache(this.backend, root, window, () => {
        if (this.caches.get(root) === created) this.caches.delete(root);
      });
      this.caches.set(root, created);
      cache = created;
    }
    if (!cache.usable) await Promise.race([cache.ready.catch(() => undefined), sleep(this.waitMs)]);
    return cache.usable ? cache : undefined;
  }

  /**
   * A list from the cache when its semantics allow, as kube's cacher does: the latest state
   * (`""`, consistent: once the cache has caught up with the store's current revision), any
   * state (`"0"`) or one not older than N, all items at once. Pages, continue tokens, exact
   * revisions and single keys go to the store, as does any list while the cache is still filling
   * or cannot catch up in time. undefined means: ask the store.
   */
  async list<T>(prefix: string, opts: ListOptions<T>): Promise<ListResult<T> | undefined> {
    if (!this.enabled(prefix) || opts.continueKey || (opts.limit ?? 0) > 0 || opts.recursive === false)
      return undefined;
    const rv = opts.resourceVersion ?? '';
    if (rv !== '' && (opts.match === 'Exact' || !/^\d+$/.test(rv) || !Number.isSafeInteger(Number(rv))))
      return undefined;
    const cache = await this.filled(prefix);
    if (!cache) return undefined;
    const want = rv === '' ? await this.backend.currentRV() : Number(rv);
    if (!(await cache.reach(want, this.waitMs))) return undefined;
    return cache.list(keyScope(prefix), opts);
  }

  /**
   * The cache a watch is served from, as kube's cacher serves it: unset (consistent, once the
   * cache caught up with the store) or `"0"` start from the cache's state; N inside the window
   * replays from it; N older than the window is too old (410, from the watch itself); N ahead of
   * the cache waits for it, then is too large. undefined means: the store serves the watch (the
   * cache is still filling or was dropped, or N is from before the cache existed, which the
   * store's history may still hold). A StorageError is the watch's only event.
   */
  async watchSource(
    prefix: string,
    resourceVersion: string,
    startRV: number,
  ): Promise<WatchCache | StorageError | undefined> {
    const cache = await this.filled(prefix);
    if (!cache) return undefined;
    if (resourceVersion === '' || startRV === 0) {
      const want = resourceVersion === '' ? await this.backend.currentRV() : 0;
      return (await cache.reach(want, this.waitMs)) ? cache : undefined;
    }
    if (!(await cache.reach(startRV, this.waitMs))) {
      return cache.usable ? tooLargeResourceVersion(startRV, cache.resourceVersion) : undefined;
    }
    return cache.covers(startRV) ? cache : undefined;
  }

  /** Open watches served from caches (for tests and metrics). */
  get watchers(): number {
    let n = 0;
    for (const c of this.caches.values()) n += c.watchers;
    return n;
  }

  close(): void {
    for (const c of this.caches.values()) c.close();
    this.caches.clear();
  }
}
