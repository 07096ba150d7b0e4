import type { Storage, StoredObject } from './storage.js';

/** One change an informer saw after it synced; `replaced` means "read everything again". */
export type InformerChange<T> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly key: string; readonly object: T }
  | { readonly type: 'replaced' };

export interface StoreInformerOptions {
  /** How long to wait before watching again after the watch failed (store down, too old). */
  readonly retryDelayMs?: number;
  /** Told about each failed watch (they are retried); the store being down is no reason to crash. */
  readonly onError?: (err: unknown) => void;
  /**
   * Whoever reads each change's decoded object only reads it, and keeps nothing of it that anyone
   * changes: the projection, when there is one, or else every reader of the objects this informer
   * holds and hands to its listeners. The watch then shares the decoded object with the other
   * sharing watches (WatchOptions.sharedObjects), as kube's informers share one object with all
   * their readers; a reader that changed one would change it for every watcher of that change.
   */
  readonly readOnly?: boolean;
}

/**
 * An informer that keeps only what `project` takes from each stored object (the garbage
 * collector's metadata-only copies, as kube's metadata informers do).
 */
export interface ProjectingInformerOptions<T> extends StoreInformerOptions {
  readonly project: (obj: StoredObject) => T;
}

/**
 * An in-memory copy of every object under one key prefix, kept current by a watch: the server's
 * own informer over its store (authorizers decide from such copies instead of reading the store
 * per request). The state read at each (re)start replaces the copy at once, so readers never see
 * a half-read store; listeners hear each change after that, or `replaced` after a re-read.
 */
export class StoreInformer<T extends object = StoredObject> {
  private items = new Map<string, T>();
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];
  private readonly listeners = new Set<(change: InformerChange<T>) => void>();

  constructor(
    private readonly storage: Storage,
    private readonly prefix: string,
    private readonly opts: StoreInformerOptions | ProjectingInformerOptions<T> = {},
  ) {}

  private take(obj: StoredObject): T {
    // Without a projection T is what the store holds under the prefix.
    return 'project' in this.opts ? this.opts.project(obj) : (obj as unknown as T);
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): IterableIterator<T> {
    return this.items.values();
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first full read has been taken in. */
  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** Returns the function that removes the listener. */
  subscribe(listener: (change: InformerChange<T>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Watches until `signal` aborts; failed watches start again from a fresh read. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.watchOnce(signal);
      } catch (err) {
        if (signal.aborted) break;
        this.opts.onError?.(err);
      }
      if (signal.aborted) break;
      await sleep(this.opts.retryDelayMs ?? 1000, signal);
    }
  }

  private async watchOnce(signal: AbortSignal): Promise<void> {
    let snapshot: Map<string, T> | undefined = new Map();
    for await (const ev of this.storage.watch<StoredObject>(this.prefix, {
      resourceVersion: '',
      bookmarks: true,
      signal,
      ...(this.opts.readOnly === true ? { sharedObjects: true } : {}),
    })) {
      if (ev.type === 'ERROR') throw ev.error;
      if (ev.type === 'BOOKMARK') {
        if (snapshot && ev.initialEventsEnd) {
          this.replace(snapshot);
          snapshot = undefined;
        }
        continue;
      }
      const object = this.take(ev.object);
      if (snapshot) {
        snapshot.set(ev.key, object);
        continue;
      }
      if (ev.type === 'DELETED') this.items.delete(ev.key);
      else this.items.set(ev.key, object);
      this.emit({ type: ev.type, key: ev.key, object });
    }
  }

  private replace(snapshot: Map<string, T>): void {
    this.items = snapshot;
    this.emit({ type: 'replaced' });
    if (!this.synced) {
      this.synced = true;
      for (const resolve of this.syncWaiters.splice(0)) resolve();
    }
  }

  private emit(change: InformerChange<T>): void {
    for (const listener of this.listeners) listener(change);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
