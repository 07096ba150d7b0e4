import btree from 'sorted-btree';
import type {
  FeedListener,
  HubListener,
  LogEntry,
  LogRead,
  PageRequest,
  PageResult,
  RawObject,
  StorageBackend,
  WatchFeed,
} from '../backend.js';
import { inScope, type KeyScope } from '../keys.js';
import { itemMaker } from '../page-reader.js';
import type { ListOptions, ListResult } from '../storage.js';
import type { WatchSource } from '../watch/watch.js';
import { EventWindow, type EventWindowOptions } from './event-window.js';

// sorted-btree is CommonJS with `exports.default` (see memory-backend.ts for the same interop).
const interop = btree as unknown as typeof btree | typeof btree.default;
const BTree: typeof btree.default = typeof interop === 'function' ? interop : interop.default;
type BTreeOf<K, V> = InstanceType<typeof btree.default<K, V>>;

/** Objects read in one page while the cache fills. */
const FILL_PAGE = 5_000;

/**
 * The watch cache of one key root (`/pods`): every object under it, in key order, and a window of
 * its recent events, kept current from the store's event feed, so lists and watches that may be
 * served from memory are (kube's cacher). It is filled by subscribing to the feed first, then
 * listing at one revision, then applying what the feed delivered after that revision, so no
 * write is missed or applied twice. Its freshness is the feed's position: the feed hands over
 * every write of the store in order, so once it has passed a revision the cache holds the state
 * at that revision.
 *
 * As a WatchSource it is what a cached watch reads: the objects as its initial state (one page,
 * taken at once), the window as its history, and its own fan-out of the resource's events live.
 */
export class WatchCache implements HubListener, WatchSource, WatchFeed {
  private readonly objects: BTreeOf<string, RawObject> = new BTree<string, RawObject>();
  private buffered: LogEntry[] | undefined = [];
  private listedAt = 0;
  private broken = false;
  private window: EventWindow | undefined;
  private readonly listeners = new Set<FeedListener>();
  /** Lists and watches waiting for the feed to pass a revision. */
  private waiters: { readonly rv: number; resolve: () => void }[] = [];
  private unsubscribe: (() => void) | undefined;
  readonly ready: Promise<void>;

  constructor(
    private readonly backend: StorageBackend,
    private readonly root: string,
    private readonly windowOpts: EventWindowOptions,
    /** Told when the cache can no longer be trusted (the feed lost events); it is dropped. */
    private readonly onBroken: () => void,
  ) {
    this.ready = this.fill();
    // A cache that fails to fill is dropped; the read that asked is served by the store.
    this.ready.catch(() => this.fail());
  }

  private async fill(): Promise<void> {
    this.unsubscribe = await this.backend.hub.subscribe(this);
    let start = `${this.root}/`;
    let atRV: number | undefined;
    for (;;) {
      const page = await this.backend.page({ prefix: `${this.root}/`, start, count: FILL_PAGE, atRV });
      if (page.kind !== 'ok') throw new Error(`watch cache of ${this.root}: the store could not list it`);
      atRV = page.rv;
      for (const raw of page.items) this.objects.set(raw.key, raw);
      const last = page.items[page.items.length - 1];
      if (!page.more || !last) break;
      start = `${last.key}\u0000`;
    }
    this.listedAt = atRV ?? 0;
    this.window = new EventWindow(this.listedAt, this.windowOpts);
    const pending = this.buffered ?? [];
    this.buffered = undefined;
    for (const entry of pending) if (entry.rv > this.listedAt) this.apply(entry);
  }

  onEntry(entry: LogEntry): void {
    if (entry.key.startsWith(`${this.root}/`)) {
      if (this.buffered) this.buffered.push(entry);
      else this.apply(entry);
    }
    // Every entry moves the feed's position, which is what waiting reads wait for.
    if (this.waiters.length > 0) this.wake();
  }

  private wake(): void {
    const rv = this.resourceVersion;
    const due = this.waiters.filter((w) => this.broken || w.rv <= rv);
    if (due.length === 0) return;
    this.waiters = this.waiters.filter((w) => !due.includes(w));
    for (const w of due) w.resolve();
  }

  onError(): void {
    this.fail();
  }

  /**
   * The feed lost events: the cache is dropped and every watch it serves ends cleanly after what
   * it was sent (all of it true), as upstream's cacher terminates its watchers when it re-lists.
   * Clients watch again from their last version and are served by the store.
   */
  private fail(): void {
    if (this.broken) return;
    this.close();
    this.onBroken();
  }

  private apply(entry: LogEntry): void {
    if (entry.type === 'DELETED' || entry.value === undefined) this.objects.delete(entry.key);
    else this.objects.set(entry.key, { key: entry.key, value: entry.value, modRV: entry.rv });
    this.window?.push(entry);
    for (const l of this.listeners) l.onEntry(entry);
  }

  /** Cached watches subscribe to the cache itself, which passes on its resource's events. */
  get hub(): WatchFeed {
    return this;
  }

  get position(): number {
    return this.resourceVersion;
  }

  subscribe(listener: FeedListener): Promise<() => void> {
    this.listeners.add(listener);
    return Promise.resolve(() => void this.listeners.delete(listener));
  }

  /** The revision the cache holds the state of (0 until it is filled). */
  get resourceVersion(): number {
    if (this.buffered) return 0;
    return Math.max(this.listedAt, this.backend.hub.position);
  }

  get usable(): boolean {
    return !this.broken && this.buffered === undefined;
  }

  /** Open watches served from this cache. */
  get watchers(): number {
    return this.listeners.size;
  }

  /**
   * Whether a watch from `rv` can be served here: the cache was filled by then, or its window has
   * moved on since it started (then an older version is too old). A watch from before the cache
   * existed is the store's, which may still hold that history.
   */
  covers(rv: number): boolean {
    return this.window?.covers(rv) ?? false;
  }

  /** Waits until the cache holds the state at `rv`; false when `waitMs` passes first. */
  async reach(rv: number, waitMs: number): Promise<boolean> {
    if (!this.usable) return false;
    if (this.resourceVersion >= rv) return true;
    let timer: NodeJS.Timeout | undefined;
    const waiter = { rv, resolve: () => undefined as void };
    const reached = await Promise.race([
      new Promise<boolean>((resolve) => {
        waiter.resolve = () => resolve(true);
        this.waiters.push(waiter);
      }),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs))),
    ]);
    clearTimeout(timer);
    this.waiters = this.waiters.filter((w) => w !== waiter);
    return reached && this.usable;
  }

  /** Every object in `scope`, as the store's list would give it at `resourceVersion`. */
  list<T>(scope: KeyScope, opts: ListOptions<T>): ListResult<T> {
    const rv = this.resourceVersion;
    const decode = itemMaker(opts);
    const items: T[] = [];
    for (const [key, raw] of this.objects.entries(scope.key)) {
      if (!inScope(scope, key)) break;
      const item = decode(raw);
      if (!opts.predicate || opts.predicate(item)) items.push(item);
    }
    return { items, resourceVersion: String(rv) };
  }

  /**
   * A watch's initial state: every object under `prefix` from `start`, in one page at the cache's
   * revision (the objects are held already; taking them at once keeps them one consistent state).
   */
  page(req: PageRequest): Promise<PageResult> {
    const items: RawObject[] = [];
    for (const [key, raw] of this.objects.entries(req.start)) {
      if (!key.startsWith(req.prefix)) break;
      items.push(raw);
    }
    return Promise.resolve({ kind: 'ok', rv: this.resourceVersion, items, more: false, remaining: 0 });
  }

  /** A watch's history: the window's events after `afterRV`, or expired once they left it. */
  readLog(afterRV: number, limit: number): Promise<LogRead> {
    const current = this.resourceVersion;
    const read = this.window?.read(afterRV, limit) ?? { kind: 'expired', oldest: current };
    // The store's watch reports `compacted + 1` as the oldest version; the cache's is `oldest`.
    if (read.kind === 'expired') return Promise.resolve({ kind: 'expired', compacted: read.oldest - 1 });
    return Promise.resolve({ kind: 'ok', entries: read.entries, current });
  }

  close(): void {
    this.broken = true;
    this.unsubscribe?.();
    this.wake();
    for (const l of [...this.listeners]) l.onEnd();
    this.listeners.clear();
  }
}
