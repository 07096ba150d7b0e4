import { isStorageError, StorageError, tooOldResourceVersion } from '../errors.js';
import { inScope, keyAfter, keyScope, type KeyScope } from '../keys.js';
import { parseResourceVersion } from '../objects.js';
import type { StorageBackend, WatchFeed } from '../backend.js';
import type { WatchEvent, WatchOptions } from '../storage.js';
import { decodeInitial, toWatchEvent, Watcher } from './watcher.js';

/** Entries replayed from the log per read. */
const replayChunk = 500;

/** Where a watch reads its history and live events: the store, or a resource's watch cache. */
export interface WatchSource {
  readonly hub: WatchFeed;
  readonly readLog: StorageBackend['readLog'];
  readonly page: StorageBackend['page'];
}

export interface WatchContext {
  readonly backend: WatchSource;
  readonly bufferSize: number;
  /** Called once per watch so the store can send bookmarks and end it on close; returns the unregister. */
  register(watch: RegisteredWatch): () => void;
}

export interface RegisteredWatch {
  readonly bookmarks: boolean;
  /** Sends a BOOKMARK at `rv` once the watch is live (everything up to `rv` was queued). */
  bookmark(rv: number): void;
  /** Ends the stream after what is queued. */
  end(): void;
}

/**
 * One watch: subscribe to the hub first (entries are parked), then replay — the current state
 * as ADDED events, or the log after the requested version — then hand over to live delivery.
 * Replay is pulled by the consumer, so a large initial state never piles up in memory.
 */
export function startWatch<T>(
  ctx: WatchContext,
  prefix: string,
  opts: WatchOptions<T>,
): AsyncGenerator<WatchEvent<T>> {
  const scope = keyScope(prefix, opts.recursive ?? true);
  const startRV = parseResourceVersion(opts.resourceVersion);
  return run(ctx, scope, startRV, opts);
}

async function* run<T>(
  ctx: WatchContext,
  scope: KeyScope,
  startRV: number,
  opts: WatchOptions<T>,
): AsyncGenerator<WatchEvent<T>> {
  const { backend } = ctx;
  const { signal, predicate } = opts;
  if (signal.aborted) return;
  const shared = opts.sharedObjects ?? false;
  const watcher = new Watcher<T>(scope, predicate, ctx.bufferSize, () => cleanup(), shared);
  let unsubscribe: (() => void) | undefined;
  let unregister: (() => void) | undefined;
  let cleaned = false;
  const cleanup = (): void => {
    if (cleaned) return;
    cleaned = true;
    signal.removeEventListener('abort', onAbort);
    unsubscribe?.();
    unregister?.();
  };
  const onAbort = (): void => watcher.queue.end();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    unsubscribe = await backend.hub.subscribe(watcher);
    unregister = ctx.register({
      bookmarks: opts.bookmarks ?? false,
      bookmark: (rv) => watcher.bookmark(rv),
      end: () => watcher.queue.end(),
    });
    if (cleaned) {
      // Closed (abort, store close) while subscribing: the cleanup ran before these existed.
      unsubscribe();
      unregister();
      return;
    }
    let pendingFrom = backend.hub.position;
    let lastRV = startRV;
    if (startRV === 0) {
      lastRV = yield* initialState(backend, scope, opts);
      if (opts.bookmarks) yield { type: 'BOOKMARK', resourceVersion: String(lastRV), initialEventsEnd: true };
    }
    let sentRV = lastRV;
    while (!signal.aborted && !watcher.queue.closed) {
      const read = await backend.readLog(lastRV, replayChunk);
      if (read.kind === 'expired') {
        yield { type: 'ERROR', error: tooOldResourceVersion(lastRV, read.compacted + 1) };
        return;
      }
      for (const entry of read.entries) {
        lastRV = entry.rv;
        const event = inScope(scope, entry.key) ? toWatchEvent(entry, predicate, shared) : undefined;
        if (event) {
          sentRV = entry.rv;
          yield event;
        }
      }
      if (read.entries.length === replayChunk) continue;
      lastRV = Math.max(lastRV, read.current);
      if (watcher.overflowed) {
        watcher.restartPending();
        pendingFrom = backend.hub.position;
        continue;
      }
      if (lastRV >= pendingFrom) {
        watcher.goLive(lastRV, sentRV);
        break;
      }
    }
    // Live: straight to the sink as the hub dispatches, or pulled through this iterator.
    if (opts.sink) await watcher.queue.drainTo(opts.sink);
    else yield* watcher.queue;
  } catch (err) {
    // Backends report their failures as StorageError; anything else (a throwing predicate, a bug)
    // reaches the consumer as a thrown error.
    if (!isStorageError(err)) throw err;
    // An aborted watch or a closing store ends quietly; anything else is the stream's last event.
    if (!signal.aborted && !watcher.queue.closed) yield { type: 'ERROR', error: err };
  } finally {
    watcher.queue.end();
    cleanup();
  }
}

async function* initialState<T>(
  backend: WatchSource,
  scope: KeyScope,
  opts: WatchOptions<T>,
): AsyncGenerator<WatchEvent<T>, number> {
  let atRV: number | undefined;
  let start = scope.key;
  for (;;) {
    const page = await backend.page({ prefix: scope.key, start, count: replayChunk, atRV });
    if (page.kind === 'expired') throw tooOldResourceVersion(atRV ?? 0, page.compacted + 1);
    if (page.kind === 'toolarge')
      throw new StorageError('TooLargeResourceVersion', `store went back to revision ${page.current}`);
    atRV = page.rv;
    for (const raw of page.items) {
      if (!inScope(scope, raw.key)) continue;
      const object = decodeInitial<T>(raw, opts.sharedObjects ?? false);
      if (!opts.predicate || opts.predicate(object))
        yield { type: 'ADDED', key: raw.key, object, resourceVersion: String(raw.modRV) };
    }
    const last = page.items[page.items.length - 1];
    if (!scope.recursive || !page.more || !last) return page.rv;
    start = keyAfter(last.key);
  }
}
