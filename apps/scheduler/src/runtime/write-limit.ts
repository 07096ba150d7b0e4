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

/** Runs at most `limit` tasks at once; the others start in the order they came. */
export class InFlightLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

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
      if (next) next();
      else this.running--;
    }
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  private slot(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(start);
        if (i >= 0) this.waiting.splice(i, 1);
        try {
          // The signal's own reason, as the client rejects with it.
          signal?.throwIfAborted();
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      };
      const start = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(start);
    });
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
