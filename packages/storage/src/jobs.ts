import type { StorageBackend } from './backend.js';

/**
 * Runs `fn` every `intervalMs`, never overlapping itself; the timer does not keep the process
 * alive. `stop()` waits for a run in progress so close() never races a background write.
 */
export class Ticker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly fn: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): this {
    if (this.intervalMs > 0) this.schedule();
    return this;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.fn()
        .catch(this.onError)
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

/**
 * Compaction the way kube-apiserver's compactor does it: each tick compacts to the revision seen
 * at the previous tick, so history covers between one and two intervals. Several servers doing
 * this against one Redis is harmless: compaction only ever moves forward.
 */
export function compactionJob(backend: StorageBackend): () => Promise<void> {
  let previous = 0;
  return async () => {
    if (previous > 0) await backend.compact(previous);
    previous = await backend.currentRV();
  };
}

/** Reaps in batches until nothing is due, so a burst of expiries is not spread over many ticks. */
export function reaperJob(backend: StorageBackend): () => Promise<void> {
  return async () => {
    for (let i = 0; i < 100 && (await backend.reapExpired()) > 0; i++);
  };
}
