import type { StorageError } from './errors.js';

/**
 * The part of an object's metadata the store reads or writes. Everything else in the object is
 * opaque JSON to the store.
 */
export interface StoredMeta {
  /** Set by the store (decimal string) on everything it returns; ignored on input. */
  resourceVersion?: string;
  /** Checked against `Preconditions.uid`. */
  uid?: string;
  [field: string]: unknown;
}

/** A JSON-serialisable plain object. The store returns fresh copies: callers may mutate them. */
export interface StoredObject {
  metadata?: StoredMeta;
  [field: string]: unknown;
}

export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export interface CreateOptions {
  /** The object expires (and watchers see DELETED) this many seconds after the write. */
  readonly ttlSeconds?: number;
  /** Check everything, persist nothing. */
  readonly dryRun?: boolean;
}

export interface GetOptions {
  /** Resolve `undefined` instead of throwing KeyNotFound. */
  readonly ignoreNotFound?: boolean;
}

/**
 * The TTL of an updated object, like Kubernetes' TTLFunc: a number, or a function of the new
 * object and the existing one. Without it, an update makes the object permanent (as etcd does
 * when the lease is dropped). An update that changes nothing writes nothing and keeps the TTL.
 */
export type TtlOption<T> = number | ((obj: T, existing: T | undefined) => number | undefined);

export interface UpdateOptions<T> {
  readonly precondition?: Preconditions;
  /** When the key is missing, call tryUpdate with `undefined` and create the object. */
  readonly ignoreNotFound?: boolean;
  readonly ttlSeconds?: TtlOption<T>;
  readonly dryRun?: boolean;
}

export interface DeleteOptions<T = StoredObject> {
  readonly precondition?: Preconditions;
  readonly dryRun?: boolean;
  /**
   * Called with the state about to be deleted (again after a concurrent change); throwing
   * refuses the delete and rejects with what was thrown, as Kubernetes' ValidateObjectFunc.
   */
  readonly validate?: (current: T) => void;
}

/**
 * How `resourceVersion` is matched, as in ListOptions.resourceVersionMatch. Without a match, a
 * non-zero resourceVersion means NotOlderThan, or Exact when `limit` is set (Kubernetes' legacy rule).
 */
export type ResourceVersionMatch = 'Exact' | 'NotOlderThan';

export type Predicate<T> = (obj: T) => boolean;

export interface ListOptions<T> {
  /** Page size; 0 or unset returns everything. With a predicate a page may hold fewer items. */
  readonly limit?: number;
  /** The `continueKey` of the previous page; the page is served at that page's resourceVersion. */
  readonly continueKey?: string;
  /** Unset or '' = latest (consistent); '0' = any (latest here); 'N' = see `match`. */
  readonly resourceVersion?: string;
  readonly match?: ResourceVersionMatch;
  /** true (default): every key under `prefix + '/'`; false: the single key `prefix`. */
  readonly recursive?: boolean;
  readonly predicate?: Predicate<T>;
  /**
   * Makes each listed item from its key and version instead of decoding the stored value, for a
   * caller that keeps what it derived from a version (one write of the store) and can skip the
   * decode: `parse` decodes the value as a plain list would. The predicate sees the result.
   */
  readonly decode?: (key: string, resourceVersion: string, parse: () => StoredObject) => T;
  /**
   * The item already made from this key at this version, if the caller holds it: the store then
   * need not read the value at all (on Redis a page is read as keys and versions first, and only
   * the values of the items this answers `undefined` for are fetched). What it returns must be
   * what `decode` (or the plain decode) would make of that version; the predicate sees it too.
   */
  readonly cached?: (key: string, resourceVersion: string) => T | undefined;
}

export interface ListResult<T> {
  readonly items: T[];
  /** The store revision the list was served at (not the maximum of the items' versions). */
  readonly resourceVersion: string;
  /** Present only when more items may follow. */
  readonly continueKey?: string;
  /** How many items follow this page; set only when more follow and no predicate is used. */
  readonly remainingItemCount?: number;
}

export interface WatchOptions<T> {
  /** Unset/''/'0': ADDED for the current state, then changes. 'N': only changes after N. */
  readonly resourceVersion?: string;
  /** true (default): every key under `prefix + '/'`; false: the single key `prefix`. */
  readonly recursive?: boolean;
  /**
   * Objects that stop matching arrive as DELETED, objects that start matching as ADDED (the
   * Kubernetes watch cache does the same).
   */
  readonly predicate?: Predicate<T>;
  /**
   * Send BOOKMARK events: one carrying the state's resourceVersion after the initial ADDED events
   * (`initialEventsEnd: true`), then periodically while the watch is open.
   */
  readonly bookmarks?: boolean;
  /** Ends the watch (the iterator finishes); required so no watch outlives its request. */
  readonly signal: AbortSignal;
  /**
   * The consumer only reads the events' objects, never changes them: each change is then decoded
   * once and the same object goes to every such watch (as kube's watch cache hands one object to
   * all its watchers), instead of one JSON.parse per watch per change.
   */
  readonly sharedObjects?: boolean;
  /**
   * Takes the watch's live events synchronously, as each change is dispatched (and the periodic
   * bookmarks and the last ERROR), instead of the iterator: one loop over the watchers per
   * change rather than an async iteration each. The iterator then yields only the replay (the
   * initial state and the history before the watch went live) and ends when the watch ends.
   * While the sink is not ready, events wait in the watch's buffer, which is bounded as always
   * (a watcher that falls `watchBufferSize` events behind ends with a Timeout ERROR).
   */
  readonly sink?: WatchSink<T>;
}

/** A synchronous consumer of a watch's live events (WatchOptions.sink). */
export interface WatchSink<T> {
  /**
   * Takes one event. Returns false when it takes no more until `ready()` resolves (its own
   * buffer is full). Must not throw: a throw ends the watch, and the iterator throws it.
   */
  put(event: WatchEvent<T>): boolean;
  /** Resolves once the sink takes events again, or once it never will (then it drops them). */
  ready(): Promise<void>;
}

export type WatchEvent<T = StoredObject> =
  | {
      readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
      readonly key: string;
      /** The object at `resourceVersion`; for DELETED its last state with the deletion's version. */
      readonly object: T;
      readonly resourceVersion: string;
    }
  | { readonly type: 'BOOKMARK'; readonly resourceVersion: string; readonly initialEventsEnd?: boolean }
  /** The last event of a watch: Expired (too old), Unreachable, or Timeout (the watcher fell behind). */
  | { readonly type: 'ERROR'; readonly error: StorageError };

/**
 * Key-value storage for API objects, after Kubernetes' storage.Interface. Keys are strings,
 * values JSON objects; one resourceVersion counter orders every write of the store.
 * Methods reject with `StorageError` for expected failures.
 */
export interface Storage {
  /** Fails with KeyExists when the key is present. Input `metadata.resourceVersion` must be unset. */
  create<T extends object = StoredObject>(key: string, obj: T, opts?: CreateOptions): Promise<T>;
  get<T extends object = StoredObject>(
    key: string,
    opts?: GetOptions & { ignoreNotFound?: false },
  ): Promise<T>;
  get<T extends object = StoredObject>(key: string, opts: GetOptions): Promise<T | undefined>;
  list<T extends object = StoredObject>(prefix: string, opts?: ListOptions<T>): Promise<ListResult<T>>;
  /**
   * Reads the current object, checks the preconditions, calls `tryUpdate` and writes its result
   * if the object did not change meanwhile; otherwise reads again and calls `tryUpdate` again.
   * `tryUpdate` may throw to abort. An unchanged result is not written (no new resourceVersion).
   */
  guaranteedUpdate<T extends object = StoredObject>(
    key: string,
    tryUpdate: (current: T | undefined) => T | Promise<T>,
    opts?: UpdateOptions<T>,
  ): Promise<T>;
  /** Resolves the deleted object's last state (with its last resourceVersion, as etcd3 does). */
  delete<T extends object = StoredObject>(key: string, opts?: DeleteOptions<T>): Promise<T>;
  watch<T extends object = StoredObject>(prefix: string, opts: WatchOptions<T>): AsyncIterable<WatchEvent<T>>;
  /**
   * The store's newest resourceVersion. With --store-servers-overrides each store has its own
   * sequence: `prefix` says which resource's is meant (the default store's without one).
   */
  currentResourceVersion(prefix?: string): Promise<string>;
  /**
   * How big the store is, for the size metric: Redis's used_memory (summed over a Cluster's
   * masters), or the embedded store's keys and values.
   */
  dbSize(): Promise<number>;
  /** One round trip to the backend within `timeoutMs`; rejects with Unreachable or Timeout. */
  healthCheck(timeoutMs: number): Promise<void>;
  /** Same round trip, for /readyz (Kubernetes keeps the two checks apart). */
  readinessCheck(timeoutMs: number): Promise<void>;
  /** Ends every watch, stops the background jobs and closes the connections the store created. */
  close(): Promise<void>;
}
