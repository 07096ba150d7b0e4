import { StorageError } from '../errors.js';
import { inScope, type KeyScope } from '../keys.js';
import { decodeObject, decodeRaw } from '../objects.js';
import type { FeedListener, LogEntry, RawObject } from '../backend.js';
import type { Predicate, WatchEvent } from '../storage.js';
import { WatchQueue } from './watch-queue.js';

interface Decoded {
  readonly cur: unknown;
  /** Decoded only when asked for: an update seen without a predicate needs just the new state. */
  prev: unknown;
  hasPrev: boolean;
}

/**
 * The decoded states of a log entry, for the watches that share objects. Keyed by the entry
 * itself: the hub (or the watch cache) hands the same entry to every watcher, and an entry is
 * never changed, so what is decoded from it stays true for as long as the entry lives.
 */
const sharedDecoded = new WeakMap<LogEntry, Decoded>();

function decodeEntry(entry: LogEntry, needPrev: boolean): Decoded {
  return {
    cur: entry.value === undefined ? undefined : decodeObject(entry.value, entry.rv),
    prev: needPrev ? decodePrev(entry) : undefined,
    hasPrev: needPrev,
  };
}

function decodePrev(entry: LogEntry): unknown {
  return entry.prev === undefined ? undefined : decodeObject(entry.prev, entry.rv);
}

function decodedOnce(entry: LogEntry, needPrev: boolean): Decoded {
  let d = sharedDecoded.get(entry);
  if (!d) {
    d = decodeEntry(entry, needPrev);
    sharedDecoded.set(entry, d);
  } else if (needPrev && !d.hasPrev) {
    d.prev = decodePrev(entry);
    d.hasPrev = true;
  }
  return d;
}

const sharedRaw = new WeakMap<RawObject, unknown>();

/**
 * An object of a watch's initial state. Shared: decoded once per stored object held by the
 * watch cache, whose page hands every starting watch the same raw objects (a store's page makes
 * new ones each time, so its watches decode their own).
 */
export function decodeInitial<T>(raw: RawObject, shared: boolean): T {
  if (!shared) return decodeRaw<T>(raw);
  let o = sharedRaw.get(raw);
  if (o === undefined) {
    o = decodeRaw<T>(raw);
    sharedRaw.set(raw, o);
  }
  return o as T;
}

/**
 * Turns a log entry into what one watcher sees. With a predicate, an object that stops
 * matching is reported DELETED (its previous state at the new version) and one that starts
 * matching ADDED, as Kubernetes' cacheWatcher does, so a filtered cache never keeps ghosts.
 * `shared`: the objects may be the ones other sharing watchers got (see WatchOptions.sharedObjects).
 */
export function toWatchEvent<T>(
  entry: LogEntry,
  predicate: Predicate<T> | undefined,
  shared = false,
): WatchEvent<T> | undefined {
  // The previous state is only reported for a deletion, or compared with a predicate.
  const needPrev = predicate !== undefined || entry.type === 'DELETED';
  const decoded = shared ? decodedOnce(entry, needPrev) : decodeEntry(entry, needPrev);
  const cur = decoded.cur as T | undefined;
  const prev = decoded.prev as T | undefined;
  const resourceVersion = String(entry.rv);
  const key = entry.key;
  if (!predicate) {
    if (entry.type === 'DELETED') return prev && { type: 'DELETED', key, object: prev, resourceVersion };
    return cur && { type: entry.type, key, object: cur, resourceVersion };
  }
  const curMatch = cur !== undefined && predicate(cur);
  const prevMatch = prev !== undefined && predicate(prev);
  if (curMatch && cur) return { type: prevMatch ? 'MODIFIED' : 'ADDED', key, object: cur, resourceVersion };
  if (prevMatch && prev) return { type: 'DELETED', key, object: prev, resourceVersion };
  return undefined;
}

/**
 * One watch's subscription to the hub. Until `goLive`, entries from the hub are parked in a
 * bounded pending list while the watch replays history itself; if that list overflows it is
 * dropped and the watch keeps replaying from the log (see `restartPending`).
 */
export class Watcher<T> implements FeedListener {
  readonly queue: WatchQueue<T>;
  private pending: LogEntry[] | undefined = [];
  private pendingOverflowed = false;
  private pendingError: StorageError | undefined;
  /** Entries at or below this version were delivered (or replayed) already. */
  private lastRV = 0;
  /** The newest version the consumer was told about (event or bookmark). */
  private sentRV = 0;

  constructor(
    private readonly scope: KeyScope,
    private readonly predicate: Predicate<T> | undefined,
    private readonly capacity: number,
    onDone: () => void,
    private readonly shared = false,
  ) {
    this.queue = new WatchQueue<T>(capacity, onDone);
  }

  get live(): boolean {
    return this.pending === undefined;
  }

  get overflowed(): boolean {
    return this.pendingOverflowed;
  }

  onEntry(entry: LogEntry): void {
    if (this.pending) {
      if (this.pendingOverflowed) return;
      if (this.pending.length >= this.capacity) {
        this.pending = [];
        this.pendingOverflowed = true;
        return;
      }
      this.pending.push(entry);
      return;
    }
    this.apply(entry);
  }

  onError(err: StorageError): void {
    if (this.pending) this.pendingError ??= err;
    else this.queue.fail(err);
  }

  /** The feed ended (the watch cache was dropped): end after what is queued; the client re-watches. */
  onEnd(): void {
    this.queue.end();
  }

  /** Drops the parked entries; the caller then replays the log past `position` itself. */
  restartPending(): void {
    this.pending = [];
    this.pendingOverflowed = false;
  }

  /**
   * Switches to live delivery: everything up to `replayedRV` was handled by replay, whose last
   * event (or starting point) the consumer saw at `sentRV`.
   */
  goLive(replayedRV: number, sentRV: number): void {
    const pending = this.pending ?? [];
    this.pending = undefined;
    this.lastRV = Math.max(this.lastRV, replayedRV);
    this.sentRV = sentRV;
    if (this.pendingError) {
      this.queue.fail(this.pendingError);
      return;
    }
    for (const entry of pending) this.apply(entry);
  }

  /** A periodic bookmark: only meaningful once live, when `rv` covers what was queued. */
  bookmark(rv: number): void {
    if (!this.live || rv <= this.sentRV || rv < this.lastRV) return;
    this.sentRV = rv;
    this.queue.push({ type: 'BOOKMARK', resourceVersion: String(rv) });
  }

  private apply(entry: LogEntry): void {
    if (entry.rv <= this.lastRV || this.queue.closed) return;
    this.lastRV = entry.rv;
    if (!inScope(this.scope, entry.key)) return;
    let event: WatchEvent<T> | undefined;
    try {
      event = toWatchEvent(entry, this.predicate, this.shared);
    } catch (err) {
      this.queue.fail(
        new StorageError(
          'InvalidObject',
          `watch predicate failed: ${err instanceof Error ? err.message : String(err)}`,
          { cause: err },
        ),
      );
      return;
    }
    if (event && this.queue.push(event)) this.sentRV = entry.rv;
  }
}
