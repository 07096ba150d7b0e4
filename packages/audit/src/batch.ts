/**
 * Batch mode: events wait in a bounded buffer (full means dropped, never a blocked request) and
 * go out in batches of maxBatchSize, or whatever has gathered after maxBatchWait. Sending can be
 * throttled to qps batches a second with a burst. shutdown() sends everything still buffered
 * and waits for every send in flight, so nothing accepted is lost on SIGTERM.
 */
import { TokenBucketRateLimiter } from '@keel/client';
import type { Backend, ErrorLog, Sink } from './sink.js';
import type { AuditEvent } from './types.js';

export interface BatchOptions {
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  readonly maxBatchWaitMs: number;
  /** undefined: unthrottled. */
  readonly throttle: { readonly qps: number; readonly burst: number } | undefined;
}

export class BatchSink implements Sink {
  private buffer: AuditEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly limiter: TokenBucketRateLimiter | undefined;
  /** Batches are handed out in order, each after its throttle token. */
  private sending: Promise<void> = Promise.resolve();
  private stopped = false;
  private dropped = 0;

  constructor(
    private readonly backend: Backend,
    private readonly opts: BatchOptions,
    private readonly logger: ErrorLog,
    private readonly sinkName: string,
  ) {
    this.limiter = opts.throttle
      ? new TokenBucketRateLimiter(opts.throttle.qps, opts.throttle.burst)
      : undefined;
  }

  process(events: readonly AuditEvent[]): Promise<boolean> {
    for (const ev of events) {
      if (this.stopped || this.buffer.length >= this.opts.bufferSize) {
        this.dropped++;
        // One line per burst of drops, not per event.
        if (this.dropped === 1 || this.dropped % 1000 === 0)
          this.logger.error('Audit buffer queue blocked: dropping events', {
            sink: this.sinkName,
            dropped: this.dropped,
          });
        continue;
      }
      this.buffer.push(ev);
    }
    while (this.buffer.length >= this.opts.maxBatchSize) this.flush();
    if (this.buffer.length > 0 && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, this.opts.maxBatchWaitMs);
    }
    return Promise.resolve(true);
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    const batch = this.buffer.splice(0, this.opts.maxBatchSize);
    if (this.buffer.length === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const limiter = this.limiter;
    const ready = this.sending.then(() => limiter?.wait());
    this.sending = ready.catch(() => undefined);
    const sent = ready
      .then(() => this.backend.write(batch))
      .catch((err: unknown) => {
        this.logger.error('Failed to write a batch of audit events', {
          sink: this.sinkName,
          events: batch.length,
          err,
        });
      })
      .finally(() => this.inFlight.delete(sent));
    this.inFlight.add(sent);
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.buffer.length > 0) this.flush();
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    await this.backend.close();
  }
}
