import type { StorageError } from './errors.js';

/**
 * The few primitives a backend implements; `GenericStorage` builds the Storage contract on them
 * so both backends share one implementation of preconditions, retries, paging and watch.
 * Values are the stored JSON text without `metadata.resourceVersion` (the version lives beside it).
 */

export interface RawObject {
  readonly key: string;
  readonly value: string;
  /** The resourceVersion of the write that produced this state. */
  readonly modRV: number;
  /** Encrypted with a key that is no longer the one writes use (see encryption/). */
  readonly stale?: boolean;
}

export type WriteOp =
  | { readonly kind: 'create'; readonly key: string; readonly value: string; readonly ttlMs?: number }
  /** `expectRV` 0 means "must not exist" (create through update). */
  | {
      readonly kind: 'update';
      readonly key: string;
      readonly value: string;
      readonly expectRV: number;
      readonly ttlMs?: number;
    }
  | { readonly kind: 'delete'; readonly key: string; readonly expectRV: number };

export type WriteResult =
  | { readonly ok: true; readonly rv: number }
  | { readonly ok: false; readonly reason: 'exists' | 'conflict' | 'notfound' };

export type LogEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One entry of the event log; `prev` is the state before the write, which lets reads undo it. */
export interface LogEntry {
  readonly rv: number;
  readonly type: LogEventType;
  readonly key: string;
  /** The new state; absent for DELETED. */
  readonly value?: string;
  /** The previous state; absent for ADDED. */
  readonly prev?: string;
  readonly prevRV?: number;
}

export interface PageRequest {
  /** Only keys starting with this string (already normalised by the caller). */
  readonly prefix: string;
  /** First key to consider (inclusive). */
  readonly start: string;
  readonly count: number;
  /** Serve the page as of this revision; undefined = the current one. */
  readonly atRV?: number;
  /**
   * How many items of the snapshot precede `start` in the prefix, when known (carried in continue
   * tokens); lets a backend count what remains without walking it.
   */
  readonly offset?: number;
}

/** An item of a page read without values (`pageKeys`): which key, at which version. */
export interface KeyVersion {
  readonly key: string;
  readonly modRV: number;
}

export type PageResult<Item = RawObject> =
  | {
      readonly kind: 'ok';
      readonly rv: number;
      readonly items: readonly Item[];
      /** Whether at least one more item follows the last one returned. */
      readonly more: boolean;
      /** How many items follow the last one returned (exact at `rv`). */
      readonly remaining: number;
    }
  | { readonly kind: 'expired'; readonly compacted: number }
  | { readonly kind: 'toolarge'; readonly current: number };

/**
 * The values of a sparse page's items (`readValues`): each item's value at its version, in order;
 * `undefined` for an item whose state is gone without a trace (its Redis hash expired by the
 * safety-net PEXPIREAT, no log entry), which a full page read then would not list either.
 */
export type ValuesRead =
  | { readonly kind: 'ok'; readonly items: readonly (RawObject | undefined)[] }
  | { readonly kind: 'expired'; readonly compacted: number };

export type LogRead =
  /** `current` is the store's revision when the entries were read. */
  | { readonly kind: 'ok'; readonly entries: readonly LogEntry[]; readonly current: number }
  | { readonly kind: 'expired'; readonly compacted: number };

export interface HubListener {
  /** Entries arrive once each, in resourceVersion order, synchronously with `position` updates. */
  onEntry(entry: LogEntry): void;
  /** The feed broke in a way that loses events (history compacted while disconnected). */
  onError(err: StorageError): void;
}

/** A listener of the watch cache's feed, which can end: then its stream ends cleanly. */
export interface FeedListener extends HubListener {
  onEnd(): void;
}

/** What a watch subscribes to: the store's hub, or a watch cache passing on its resource's events. */
export interface WatchFeed {
  /** Highest resourceVersion dispatched to listeners so far. */
  readonly position: number;
  subscribe(listener: FeedListener): Promise<() => void>;
}

/** The per-store fan-out of the event log to local watchers. */
export interface EventHub {
  /** Highest resourceVersion dispatched to listeners so far. */
  readonly position: number;
  /** Resolves once the hub knows its position; rejects (StorageError) when the backend is unreachable. */
  subscribe(listener: HubListener): Promise<() => void>;
}

export interface StorageBackend {
  read(key: string): Promise<RawObject | undefined>;
  write(op: WriteOp): Promise<WriteResult>;
  page(req: PageRequest): Promise<PageResult>;
  /**
   * A page as `page` would read it (same items, versions, `more` and `remaining`), without the
   * values: for a caller that already holds what it derived from most versions and reads only
   * the others' values with `readValues`. Optional: a backend whose values cost nothing to hand
   * over (the memory backend) has no need for it.
   */
  pageKeys?(req: PageRequest): Promise<PageResult<KeyVersion>>;
  /**
   * The value of each item at its version, where the items come from `pageKeys` at snapshot
   * `atRV` (the page's `rv`). An item written or deleted since is read from the log (its first
   * entry after `atRV` holds its state at `atRV`), so the answer is the snapshot's even when the
   * objects moved on; `expired` when the log no longer reaches back to `atRV`.
   */
  readValues?(atRV: number, items: readonly KeyVersion[]): Promise<ValuesRead>;
  /** Up to `limit` entries with rv > afterRV, or expired when afterRV is older than the history. */
  readLog(afterRV: number, limit: number): Promise<LogRead>;
  currentRV(): Promise<number>;
  /** Drops history up to and including `rv`; idempotent and safe to run from several servers. */
  compact(rv: number): Promise<void>;
  /** Deletes objects whose TTL has passed, each with a DELETED log entry; returns how many. */
  reapExpired(): Promise<number>;
  ping(timeoutMs: number): Promise<void>;
  /** Bytes the store holds, as its server reports them (etcd's db size); see Storage.dbSize. */
  dbSize(): Promise<number>;
  readonly hub: EventHub;
  close(): Promise<void>;
  /**
   * Whether writing `value` (JSON text) would store what `raw` holds; without it, the texts are
   * compared. A backend that stores another encoding compares in that encoding.
   */
  unchanged?(raw: RawObject, value: string): boolean;
}
