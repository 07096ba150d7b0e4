import { invalidObject, keyExists, keyNotFound, preconditionFailed, StorageError } from './errors.js';
import { compactionJob, reaperJob, Ticker } from './jobs.js';
import { listObjects } from './list.js';
import { decodeObject, decodeRaw, encodeObject, metaOf, parseResourceVersion, ttlToMs } from './objects.js';
import { startWatch, type RegisteredWatch, type WatchSource } from './watch/watch.js';
import type { RawObject, StorageBackend } from './backend.js';
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  Preconditions,
  Storage,
  StoredObject,
  UpdateOptions,
  WatchEvent,
  WatchOptions,
} from './storage.js';
import type { EncryptionConfig } from './encryption/config.js';
import { TransformingBackend } from './encryption/transforming-backend.js';
import { EncodingBackend, type StoredEncoding } from './media/encoding-backend.js';
import { WatchCaches, type WatchCacheSize } from './watch-cache/watch-caches.js';

/** Tuning shared by both backends. All durations in milliseconds. */
export interface CommonStorageOptions {
  /** History kept for watch and list-at-revision (1–2 intervals); 0 disables compaction. @default 300000 */
  readonly compactionIntervalMs?: number;
  /** How often expired objects are deleted. @default 1000 */
  readonly reaperIntervalMs?: number;
  /** Events a watcher may have unread before it is closed with an ERROR. @default 1000 */
  readonly watchBufferSize?: number;
  /** Period of BOOKMARK events for watches that asked for them. @default 60000 */
  readonly bookmarkIntervalMs?: number;
  /** How long a read for a future resourceVersion waits before TooLargeResourceVersion. @default 3000 */
  readonly resourceVersionWaitMs?: number;
  /** Failures of background jobs (compaction, reaper); they are retried at the next tick. */
  readonly onBackgroundError?: (err: unknown, job: 'compaction' | 'reaper') => void;
  /** --encryption-provider-config: values of the resources it names are stored encrypted. */
  readonly encryption?: EncryptionConfig;
  /**
   * --storage-media-type: the encoding writes store (JSON text when unset). Reads decode every
   * encoding, whatever this says; an object in another encoding is rewritten by its next update.
   */
  readonly storedEncoding?: StoredEncoding;
  /**
   * --watch-cache and --watch-cache-sizes: whether the objects under a key root (`/pods`) and a
   * window of its recent events are kept in memory, so lists and watches that may be served from
   * memory are, and how many events the window keeps (see watch-cache/). Unset: none are.
   */
  readonly watchCache?: (keyRoot: string) => WatchCacheSize;
}

/** Everything of the Storage contract that does not depend on the backend. */
export class GenericStorage implements Storage {
  private readonly watches = new Set<RegisteredWatch>();
  private readonly tickers: Ticker[];
  private closed = false;
  private readonly backend: StorageBackend;
  private readonly caches: WatchCaches;

  constructor(
    backend: StorageBackend,
    private readonly opts: CommonStorageOptions = {},
  ) {
    // Encode, then encrypt (upstream's codec runs before its transformer).
    if (opts.encryption) backend = new TransformingBackend(backend, opts.encryption);
    if (opts.storedEncoding) backend = new EncodingBackend(backend, opts.storedEncoding);
    this.backend = backend;
    this.caches = new WatchCaches(backend, opts.watchCache, opts.resourceVersionWaitMs ?? 3_000);
    const onError = (job: 'compaction' | 'reaper') => (err: unknown) => opts.onBackgroundError?.(err, job);
    this.tickers = [
      new Ticker(opts.compactionIntervalMs ?? 300_000, compactionJob(backend), onError('compaction')).start(),
      new Ticker(opts.reaperIntervalMs ?? 1_000, reaperJob(backend), onError('reaper')).start(),
      new Ticker(
        opts.bookmarkIntervalMs ?? 60_000,
        () => this.sendBookmarks(),
        () => undefined,
      ).start(),
    ];
  }

  async create<T extends object = StoredObject>(key: string, obj: T, opts: CreateOptions = {}): Promise<T> {
    if (metaOf(obj)?.resourceVersion)
      throw invalidObject('resourceVersion should not be set on objects to be created', key);
    const value = encodeObject(obj, key);
    const ttlMs = ttlToMs(opts.ttlSeconds, key);
    if (opts.dryRun) {
      if (await this.backend.read(key)) throw keyExists(key);
      return JSON.parse(value) as T;
    }
    const res = await this.backend.write({
      kind: 'create',
      key,
      value,
      ...(ttlMs === undefined ? {} : { ttlMs }),
    });
    if (!res.ok) throw keyExists(key);
    return decodeObject<T>(value, res.rv);
  }

  get<T extends object = StoredObject>(
    key: string,
    opts?: GetOptions & { ignoreNotFound?: false },
  ): Promise<T>;
  get<T extends object = StoredObject>(key: string, opts: GetOptions): Promise<T | undefined>;
  async get<T extends object = StoredObject>(key: string, opts: GetOptions = {}): Promise<T | undefined> {
    const raw = await this.backend.read(key);
    if (raw) return decodeRaw<T>(raw);
    if (opts.ignoreNotFound) return undefined;
    throw keyNotFound(key);
  }

  async list<T extends object = StoredObject>(
    prefix: string,
    opts: ListOptions<T> = {},
  ): Promise<ListResult<T>> {
    const waitMs = this.opts.resourceVersionWaitMs ?? 3_000;
    return (await this.caches.list(prefix, opts)) ?? listObjects(this.backend, prefix, opts, waitMs);
  }

  async guaranteedUpdate<T extends object = StoredObject>(
    key: string,
    tryUpdate: (current: T | undefined) => T | Promise<T>,
    opts: UpdateOptions<T> = {},
  ): Promise<T> {
    for (;;) {
      const raw = await this.backend.read(key);
      if (!raw && !opts.ignoreNotFound) throw keyNotFound(key);
      // One decode for the precondition check and tryUpdate; only a TTL computed from the
      // existing state needs a copy of its own, as tryUpdate may change what it is given.
      const fresh = raw && decodeRaw<T>(raw);
      if (fresh) checkPreconditions(key, fresh, opts.precondition);
      const ttl = opts.ttlSeconds;
      const current = raw && typeof ttl === 'function' ? decodeRaw<T>(raw) : undefined;
      const next = await tryUpdate(fresh);
      const value = encodeObject(next, key);
      const ttlSeconds = typeof ttl === 'function' ? ttl(next, current) : ttl;
      const ttlMs = ttlToMs(ttlSeconds, key);
      // Like etcd3's GuaranteedUpdate: an unchanged object is not written and keeps its version
      // (and its TTL: the lease is only replaced by a write), unless it was encrypted with a key
      // that is no longer the first, so that an update rotates it.
      const unchanged =
        raw && (this.backend.unchanged ? this.backend.unchanged(raw, value) : value === raw.value);
      if (raw && unchanged && raw.stale !== true) return decodeRaw<T>(raw);
      if (opts.dryRun) return raw ? decodeObject<T>(value, raw.modRV) : (JSON.parse(value) as T);
      const res = await this.backend.write({
        kind: 'update',
        key,
        value,
        expectRV: raw?.modRV ?? 0,
        ...(ttlMs === undefined ? {} : { ttlMs }),
      });
      if (res.ok) return decodeObject<T>(value, res.rv);
      // Someone wrote (or deleted, or created) the key since we read it: read again and retry.
    }
  }

  async delete<T extends object = StoredObject>(key: string, opts: DeleteOptions<T> = {}): Promise<T> {
    for (;;) {
      const raw: RawObject | undefined = await this.backend.read(key);
      if (!raw) throw keyNotFound(key);
      const current = decodeRaw<T>(raw);
      checkPreconditions(key, current, opts.precondition);
      opts.validate?.(current);
      if (opts.dryRun) return current;
      const res = await this.backend.write({ kind: 'delete', key, expectRV: raw.modRV });
      if (res.ok) return current;
      if (res.reason === 'notfound') throw keyNotFound(key);
    }
  }

  watch<T extends object = StoredObject>(
    prefix: string,
    opts: WatchOptions<T>,
  ): AsyncIterable<WatchEvent<T>> {
    if (this.closed) throw new StorageError('Unreachable', 'storage is closed');
    if (!this.caches.enabled(prefix)) return startWatch<T>(this.watchContext(this.backend), prefix, opts);
    // Checked here so that a bad version fails the call, as it does for an uncached watch.
    const startRV = parseResourceVersion(opts.resourceVersion);
    return this.watchCached(prefix, opts, startRV);
  }

  /** A watch of a cached root: served from its cache when the cache can (see WatchCaches). */
  private async *watchCached<T extends object>(
    prefix: string,
    opts: WatchOptions<T>,
    startRV: number,
  ): AsyncGenerator<WatchEvent<T>> {
    const source = await this.caches.watchSource(prefix, opts.resourceVersion ?? '', startRV);
    if (this.closed || opts.signal.aborted) return;
    if (source instanceof StorageError) {
      yield { type: 'ERROR', error: source };
      return;
    }
    yield* startWatch<T>(this.watchContext(source ?? this.backend), prefix, opts);
  }

  private watchContext(source: WatchSource) {
    return {
      backend: source,
      bufferSize: this.opts.watchBufferSize ?? 1_000,
      register: (w: RegisteredWatch) => {
        this.watches.add(w);
        return () => this.watches.delete(w);
      },
    };
  }

  /** Open watches served from watch caches rather than the store. */
  get cachedWatchers(): number {
    return this.caches.watchers;
  }

  async currentResourceVersion(): Promise<string> {
    return String(await this.backend.currentRV());
  }

  dbSize(): Promise<number> {
    return this.backend.dbSize();
  }

  healthCheck(timeoutMs: number): Promise<void> {
    return this.backend.ping(timeoutMs);
  }

  readinessCheck(timeoutMs: number): Promise<void> {
    return this.backend.ping(timeoutMs);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of [...this.watches]) w.end();
    this.caches.close();
    await Promise.all(this.tickers.map((t) => t.stop()));
    await this.backend.close();
  }

  private sendBookmarks(): Promise<void> {
    const position = this.backend.hub.position;
    for (const w of this.watches) if (w.bookmarks) w.bookmark(position);
    return Promise.resolve();
  }
}

function checkPreconditions(key: string, current: object, pre: Preconditions | undefined): void {
  if (!pre) return;
  const meta = metaOf(current);
  const uid = String(meta?.uid ?? '');
  if (pre.uid !== undefined && pre.uid !== uid) throw preconditionFailed(key, 'UID', pre.uid, uid);
  const rv = meta?.resourceVersion ?? '';
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== rv)
    throw preconditionFailed(key, 'ResourceVersion', pre.resourceVersion, rv);
}
