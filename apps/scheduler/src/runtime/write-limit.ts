/**
 * A cap on the writes one REST client has in flight. kube-scheduler starts a goroutine per
 * binding and per event, and client-go multiplexes them all over one HTTP/2 connection. Keel's
 * client speaks HTTP/1.1, where every request beyond the idle connections opens a new TLS
 * connection: a burst of bindings would open hundreds, and their handshakes (and the CA parsing of
 * each new secure context) cost more CPU than scheduling. A few requests in flight keep the pool
 * to that many connections, reused, and still carry thousands of writes per second.
 */
import type {
  DeleteOptions,
  ListOptions,
  PatchOptions,
  PatchType,
  RestClient,
  WatchOptions,
  WriteOptions,
} from '@keel/client';

/** Binding and pod status writes of the scheduler's own client. */
export const SCHEDULER_WRITES_IN_FLIGHT = 32;
/** Event writes, which must never hold up a binding: they have their own client and cap. */
export const EVENT_WRITES_IN_FLIGHT = 8;

interface Waiter {
  readonly signal: AbortSignal | undefined;
  readonly start: () => void;
  readonly reject: (err: Error) => void;
}

/**
 * Runs at most `limit` tasks at once; the others start in the order they came.
 * Waiters usually share one long-lived signal (the scheduling loop's): each signal gets one abort
 * listener for all its waiters, since an AbortSignal's addEventListener walks the listeners it
 * already has (a listener per waiter made a backlog of bindings quadratic).
 */
export class InFlightLimit {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private readonly watched = new WeakSet<AbortSignal>();

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`limit must be at least 1, got ${limit}`);
  }

  /** Runs `task` once a slot is free; rejects with the signal's reason if it aborts while waiting. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.running >= this.limit) await this.slot(signal);
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `running` only drops when none waits.
      if (next) next.start();
      else this.running--;
    }
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  private slot(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (signal && !this.watched.has(signal)) {
      this.watched.add(signal);
      signal.addEventListener('abort', () => this.abortWaiters(signal), { once: true });
    }
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ signal, start: resolve, reject });
    });
  }

  /** Drops every waiter of `signal`, rejecting each with the signal's own reason (as the client does). */
  private abortWaiters(signal: AbortSignal): void {
    let err: Error;
    try {
      signal.throwIfAborted();
      return;
    } catch (e) {
      err = e instanceof Error ? e : new Error(String(e));
    }
    let kept = 0;
    for (const w of this.waiting) {
      if (w.signal === signal) w.reject(err);
      else this.waiting[kept++] = w;
    }
    this.waiting.length = kept;
  }
}

export type WriteClient = Pick<RestClient, 'list' | 'watch' | 'create' | 'patch' | 'delete'>;

/** `client` with its creates and patches limited to `limit` in flight; reads and watches pass. */
export function limitWrites(client: WriteClient, limit: number): WriteClient {
  const gate = new InFlightLimit(limit);
  return {
    list: <T>(path: string, opts?: ListOptions) => client.list<T>(path, opts),
    watch: <T>(path: string, opts?: WatchOptions) => client.watch<T>(path, opts),
    create: <T>(path: string, body: unknown, opts?: WriteOptions) =>
      gate.run(() => client.create<T>(path, body, opts), opts?.signal),
    patch: <T>(path: string, type: PatchType, body: unknown, opts?: PatchOptions) =>
      gate.run(() => client.patch<T>(path, type, body, opts), opts?.signal),
    delete: <T>(path: string, opts?: DeleteOptions) =>
      gate.run(() => client.delete<T>(path, opts), opts?.signal),
  };
}
