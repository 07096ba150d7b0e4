/**
 * A list-and-watch cache: client-go's reflector and store, reduced to what a controller needs.
 * It lists (paged), then watches from the list's resourceVersion; a watch that ends is resumed
 * from the last version seen (bookmarks included), and a 410 Expired means that version is gone
 * so it relists, diffing the new list against the cache so handlers see adds, updates and the
 * deletes that happened meanwhile. Connection problems back off exponentially with jitter.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isGoneOrExpired, isNotFound, StatusError } from '@keel/apimachinery';
import { Backoff, type BackoffOptions } from './backoff.js';
import { ObjectStore, type StoreChanges } from './object-store.js';
import type { RestClient } from './rest-client.js';
import type { KubeList, KubeObject } from './types.js';

export interface InformerHandlers<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
}

export interface InformerOptions<T extends KubeObject> extends InformerHandlers<T> {
  readonly client: Pick<RestClient, 'list' | 'watch'>;
  /** The collection to list, e.g. `/api/v1/pods` or `/apis/events.k8s.io/v1/namespaces/ns/events`. */
  readonly listPath: string;
  /** The collection to watch; defaults to listPath. */
  readonly watchPath?: string;
  /**
   * Older versions of the same collection, tried in order when the server answers 404 for the one
   * before (`/apis/policy/v1beta1/poddisruptionbudgets` after `/apis/policy/v1/...`): a client
   * meeting an older API server reads what it serves. Not combined with watchPath.
   */
  readonly fallbackListPaths?: readonly string[];
  /**
   * When the server serves none of the paths (404), count as synced with nothing in it (logged
   * once through onError) and keep trying after the backoff, instead of holding up everyone
   * waiting for the sync: for collections a client can do without on an older server.
   */
  readonly optional?: boolean;
  readonly fieldSelector?: string;
  readonly labelSelector?: string;
  /** Items per list page (`limit`, following `continue`); 0 or unset lists in one request. */
  readonly pageSize?: number;
  /**
   * After a failed watch (other than 410), relist instead of resuming the watch from the last
   * resourceVersion. Default false: resume, and relist only when the server says it is too old.
   */
  readonly resyncOnError?: boolean;
  /** Server-side watch timeout; default a random value in [300, 600) s like client-go. */
  readonly watchTimeoutSeconds?: number;
  readonly backoff?: BackoffOptions;
  /** Applied to every object before it is cached (e.g. to drop managedFields). */
  readonly transform?: (obj: T) => T;
  /** Told about every failure the informer recovers from (for logging). */
  readonly onError?: (err: unknown) => void;
  /** Stops the informer when aborted. */
  readonly signal?: AbortSignal;
}

export interface Informer<T extends KubeObject> {
  /** Starts listing and watching (once; later calls do nothing). */
  start(): void;
  /** Stops and waits until the loop has ended; handlers are not called afterwards. */
  stop(): Promise<void>;
  /** True once the first complete list is in the cache. */
  hasSynced(): boolean;
  /** Resolves true once synced; false if the signal aborts or the informer stops first. */
  waitForSync(signal?: AbortSignal): Promise<boolean>;
  /** The cached object for `namespace/name` (or `name` when cluster-scoped). */
  get(key: string): T | undefined;
  list(): T[];
  keys(): string[];
  /** The resourceVersion the cache reflects. */
  lastSyncResourceVersion(): string;
  /** Adds handlers; existing objects are replayed to onAdd. Returns a remover. */
  addEventHandler(handlers: InformerHandlers<T>): () => void;
}

/** client-go: a watch closing within a second without events is treated as an error. */
const SHORT_WATCH_MS = 1000;

export function createInformer<T extends KubeObject = KubeObject>(opts: InformerOptions<T>): Informer<T> {
  const store = new ObjectStore<T>();
  const handlers = new Set<InformerHandlers<T>>([opts]);
  const backoff = new Backoff(opts.backoff);
  const abort = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, abort.signal]) : abort.signal;
  const syncWaiters = new Set<() => void>();
  // Stopping (even an informer never started) releases everyone waiting for the first sync.
  signal.addEventListener('abort', () => [...syncWaiters].forEach((wake) => wake()), { once: true });
  let synced = false;
  let resourceVersion = '';
  const paths = [opts.listPath, ...(opts.fallbackListPaths ?? [])];
  let pathIndex = 0;
  const listPath = () => paths[pathIndex] as string;
  let reportedUnserved = false;
  const markSynced = () => {
    if (synced) return;
    synced = true;
    [...syncWaiters].forEach((wake) => wake());
  };
  let loop: Promise<void> | undefined;

  const report = (err: unknown) => {
    try {
      opts.onError?.(err);
    } catch {
      // A failing error reporter must not stop the informer.
    }
  };
  const dispatch = (call: (h: InformerHandlers<T>) => void) => {
    for (const h of handlers) {
      try {
        call(h);
      } catch (err) {
        report(err);
      }
    }
  };
  const emit = (changes: StoreChanges<T>) => {
    for (const obj of changes.deleted) dispatch((h) => h.onDelete?.(obj));
    for (const [o, n] of changes.updated) dispatch((h) => h.onUpdate?.(o, n));
    for (const obj of changes.added) dispatch((h) => h.onAdd?.(obj));
  };
  const prepare = (obj: T) => (opts.transform ? opts.transform(obj) : obj);

  async function listAll(): Promise<{ items: T[]; resourceVersion: string }> {
    const base = { fieldSelector: opts.fieldSelector, labelSelector: opts.labelSelector, signal };
    const items: T[] = [];
    let rv = '';
    let cont: string | undefined;
    for (;;) {
      let page: KubeList<T>;
      try {
        page = await opts.client.list<KubeList<T>>(listPath(), {
          ...base,
          limit: opts.pageSize || undefined,
          continue: cont,
        });
      } catch (err) {
        if (!cont || !isGoneOrExpired(err)) throw err;
        // The continue token expired mid-way (client-go's pager): fall back to one full list.
        items.length = 0;
        page = await opts.client.list<KubeList<T>>(listPath(), base);
        cont = undefined;
      }
      items.push(...withKind(page).map(prepare));
      rv = page.metadata?.resourceVersion ?? rv;
      cont = page.metadata?.continue || undefined;
      if (!cont) return { items, resourceVersion: rv };
    }
  }

  async function relist(): Promise<void> {
    const listed = await listAll();
    if (signal.aborted) return;
    emit(store.replace(listed.items));
    resourceVersion = listed.resourceVersion;
    markSynced();
  }

  /**
   * A 404 on the collection: the next fallback path (at once), or, past the last, start over
   * after the backoff, synced with nothing when the collection is optional.
   */
  function unserved(err: unknown): 'retry-now' | 'backoff' {
    if (pathIndex + 1 < paths.length) {
      pathIndex++;
      return 'retry-now';
    }
    pathIndex = 0;
    if (!opts.optional) {
      report(err);
      return 'backoff';
    }
    if (!reportedUnserved) {
      reportedUnserved = true;
      report(
        new Error(
          `${paths.join(', ')} not served (${err instanceof Error ? err.message : String(err)}): ` +
            'going on without it and trying again later',
        ),
      );
    }
    if (store.list().length > 0) emit(store.replace([]));
    markSynced();
    return 'backoff';
  }

  /** One watch; resolves 'ended' when the server closed it, 'expired' when a relist is needed. */
  async function watchOnce(): Promise<'ended' | 'expired'> {
    const started = Date.now();
    let events = 0;
    const stream = opts.client.watch<T>(opts.watchPath ?? listPath(), {
      resourceVersion,
      allowWatchBookmarks: true,
      fieldSelector: opts.fieldSelector,
      labelSelector: opts.labelSelector,
      timeoutSeconds: opts.watchTimeoutSeconds ?? Math.floor(300 * (1 + Math.random())),
      signal,
    });
    for await (const ev of stream) {
      if (signal.aborted) break;
      events++;
      if (ev.type === 'ERROR') {
        const err = new StatusError(ev.object);
        if (isGoneOrExpired(err)) return 'expired';
        throw err;
      }
      backoff.reset();
      const obj = ev.type === 'BOOKMARK' ? ev.object : prepare(ev.object);
      const rv = obj.metadata?.resourceVersion;
      if (ev.type === 'ADDED' || ev.type === 'MODIFIED') {
        const old = store.upsert(obj);
        dispatch((h) => (old ? h.onUpdate?.(old, obj) : h.onAdd?.(obj)));
      } else if (ev.type === 'DELETED') {
        store.remove(obj);
        dispatch((h) => h.onDelete?.(obj));
      }
      if (rv) resourceVersion = rv;
    }
    if (!signal.aborted && events === 0 && Date.now() - started < SHORT_WATCH_MS) {
      throw new Error(
        `very short watch on ${opts.watchPath ?? listPath()}: closed within a second without events`,
      );
    }
    return 'ended';
  }

  async function run(): Promise<void> {
    let needList = true;
    while (!signal.aborted) {
      try {
        if (needList) {
          await relist();
          needList = false;
          backoff.reset();
        }
        if (signal.aborted) break;
        if ((await watchOnce()) === 'expired') needList = true;
      } catch (err) {
        if (signal.aborted) break;
        if (needList && isNotFound(err) && (paths.length > 1 || opts.optional)) {
          if (unserved(err) === 'retry-now') continue;
          await sleep(backoff.next(), undefined, { signal }).catch(() => undefined);
          continue;
        }
        report(err);
        needList = needList || isGoneOrExpired(err) || (opts.resyncOnError ?? false);
        await sleep(backoff.next(), undefined, { signal }).catch(() => undefined);
      }
    }
  }

  return {
    start() {
      loop ??= run();
    },
    async stop() {
      abort.abort();
      await loop;
    },
    hasSynced: () => synced,
    waitForSync(waitSignal?: AbortSignal) {
      if (synced) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const done = () => {
          syncWaiters.delete(done);
          waitSignal?.removeEventListener('abort', done);
          resolve(synced);
        };
        if (signal.aborted || waitSignal?.aborted) return resolve(false);
        syncWaiters.add(done);
        waitSignal?.addEventListener('abort', done, { once: true });
      });
    },
    get: (key) => store.get(key),
    list: () => store.list(),
    keys: () => store.keys(),
    lastSyncResourceVersion: () => resourceVersion,
    addEventHandler(h) {
      handlers.add(h);
      for (const obj of store.list()) {
        try {
          h.onAdd?.(obj);
        } catch (err) {
          report(err);
        }
      }
      return () => handlers.delete(h);
    },
  };
}

/** Items of a built-in list carry no kind/apiVersion; give them the list's, as watch events have. */
function withKind<T extends KubeObject>(list: KubeList<T>): T[] {
  const kind = list.kind?.endsWith('List') ? list.kind.slice(0, -'List'.length) : undefined;
  return list.items.map((item) =>
    item.kind || !kind ? item : { ...item, apiVersion: item.apiVersion ?? list.apiVersion, kind },
  );
}
