import { afterEach } from 'vitest';
import type { Storage, StoredObject, WatchEvent, WatchOptions } from '../storage.js';

/** Knobs the suite turns per test; a backend factory must honour all of them. */
export interface ConformanceStoreOptions {
  readonly compactionIntervalMs: number;
  readonly reaperIntervalMs: number;
  readonly resourceVersionWaitMs: number;
  readonly watchBufferSize: number;
  readonly bookmarkIntervalMs: number;
}

export type MakeStore = (opts: ConformanceStoreOptions) => Promise<Storage>;

export const defaultConformanceOptions: ConformanceStoreOptions = {
  // Long enough that no history disappears during a test that does not ask for compaction.
  compactionIntervalMs: 600_000,
  reaperIntervalMs: 100,
  resourceVersionWaitMs: 300,
  watchBufferSize: 1_000,
  bookmarkIntervalMs: 600_000,
};

/** Opens stores for the current test and closes them after it, whatever happened. */
export function storeFixture(
  makeStore: MakeStore,
): (opts?: Partial<ConformanceStoreOptions>) => Promise<Storage> {
  const open: Storage[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (opts = {}) => {
    const store = await makeStore({ ...defaultConformanceOptions, ...opts });
    open.push(store);
    return store;
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns without throwing, or rethrows its last error after `timeoutMs`. */
export async function eventually<T>(fn: () => Promise<T>, timeoutMs = 5_000, stepMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(stepMs);
    }
  }
}

export interface Obj extends StoredObject {
  metadata: { name: string; uid?: string; resourceVersion?: string; labels?: Record<string, string> };
  spec?: { n?: number; color?: string };
}

export const obj = (name: string, spec: Obj['spec'] = {}, uid?: string): Obj => ({
  metadata: { name, ...(uid ? { uid } : {}) },
  spec,
});

/** Reads a watch in the background so tests can wait for events with a timeout. */
export class EventCollector<T = Obj> {
  readonly events: WatchEvent<T>[] = [];
  readonly controller = new AbortController();
  readonly done: Promise<void>;
  private wake: (() => void) | undefined;

  constructor(store: Storage, prefix: string, opts: Omit<WatchOptions<T & object>, 'signal'> = {}) {
    const iterable = store.watch<T & object>(prefix, { ...opts, signal: this.controller.signal });
    this.done = (async () => {
      for await (const ev of iterable) {
        this.events.push(ev);
        this.wake?.();
      }
      this.wake?.();
    })();
  }

  /** Resolves once `n` events arrived; rejects after `timeoutMs` listing what did arrive. */
  async waitFor(n: number, timeoutMs = 5_000): Promise<WatchEvent<T>[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < n) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `expected ${n} events, got ${this.events.length}: ${JSON.stringify(this.events.map(describe))}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
    return this.events.slice(0, n);
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.done;
  }
}

/** A compact form for assertions: `ADDED a 5`, `ERROR Expired`, `BOOKMARK 7`. */
export function describe(ev: WatchEvent<unknown>): string {
  if (ev.type === 'ERROR') return `ERROR ${ev.error.code}`;
  if (ev.type === 'BOOKMARK') return `BOOKMARK ${ev.resourceVersion}`;
  const name = (ev.object as { metadata?: { name?: string } }).metadata?.name ?? '?';
  return `${ev.type} ${name} ${ev.resourceVersion}`;
}

export const rvOf = (o: { metadata?: { resourceVersion?: string } }): number =>
  Number(o.metadata?.resourceVersion);
