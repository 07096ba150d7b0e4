/**
 * A keyed work queue (kube's rate-limited workqueue, reduced to what the collector needs): a key
 * waits at most once, is handled by one worker at a time (added again meanwhile, it runs once
 * more afterwards), and a failed key comes back after an exponentially growing delay.
 */
export interface WorkQueueOptions {
  readonly workers: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Told about each failure (the key is retried). */
  readonly onError?: (key: string, err: unknown) => void;
}

/** `retry`: not done yet, look again later (with the backoff); `done`: forget its failures. */
export type WorkResult = 'done' | 'retry';

export class WorkQueue {
  private readonly waiting = new Set<string>();
  private readonly active = new Set<string>();
  private readonly again = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private busy = 0;
  private signal: AbortSignal | undefined;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly handle: (key: string) => Promise<WorkResult>,
    private readonly opts: WorkQueueOptions,
  ) {}

  /** Keys added before this wait; workers run until `signal` aborts. */
  start(signal: AbortSignal): void {
    if (this.signal) return;
    this.signal = signal;
    signal.addEventListener(
      'abort',
      () => {
        for (const t of this.timers.values()) clearTimeout(t);
        this.timers.clear();
      },
      { once: true },
    );
    this.pump();
  }

  add(key: string): void {
    if (this.signal?.aborted) return;
    if (this.active.has(key)) {
      this.again.add(key);
      return;
    }
    this.waiting.add(key);
    this.pump();
  }

  /** Keys waiting, being handled or waiting out a backoff. */
  get length(): number {
    return new Set([...this.waiting, ...this.active, ...this.timers.keys()]).size;
  }

  /** Resolves once nothing waits or runs (keys in backoff do not count). */
  idle(): Promise<void> {
    if (this.waiting.size === 0 && this.active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    const signal = this.signal;
    if (!signal || signal.aborted) return;
    while (this.busy < this.opts.workers) {
      const [key] = this.waiting;
      if (key === undefined) break;
      this.waiting.delete(key);
      this.active.add(key);
      this.busy++;
      void this.run(key, signal);
    }
    if (this.waiting.size === 0 && this.active.size === 0) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  private async run(key: string, signal: AbortSignal): Promise<void> {
    let result: WorkResult;
    try {
      result = await this.handle(key);
    } catch (err) {
      if (!signal.aborted) this.opts.onError?.(key, err);
      result = 'retry';
    }
    this.active.delete(key);
    this.busy--;
    if (result === 'done') this.failures.delete(key);
    if (this.again.delete(key)) this.waiting.add(key);
    else if (result === 'retry') this.later(key);
    this.pump();
  }

  private later(key: string): void {
    if (this.timers.has(key) || this.signal?.aborted) return;
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const delay = Math.min((this.opts.baseDelayMs ?? 50) * 2 ** n, this.opts.maxDelayMs ?? 30_000);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, delay);
    timer.unref();
    this.timers.set(key, timer);
  }
}
