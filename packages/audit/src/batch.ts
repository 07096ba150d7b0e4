/**
 * Batch mode: events wait in a bounded buffer (full means dropped, never a blocked request) and
 * go out in batches of maxBatchSize, or whatever has gathered after maxBatchWait. Sending can be
 * throttled to qps batches a second with a burst. shutdown() sends everything still buffered
 * and waits for every send in flight, so nothing accepted is lost on SIGTERM.
 */
import { TokenBucketRateLimiter } from '@keel/client';
import type { AuditMetrics } from './metrics.js';
import type { Backend, ErrorLog, Sink } from './sink.js';
import type { AuditEvent } from './types.js';

/** The plugin kube names for events its batch buffer had no room for. */
const BUFFER_PLUGIN = 'buffered';

export interface BatchOptions {
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  readonly maxBatchWaitMs: number;
  /** undefined: unthrottled. */
  readonly throttle: { readonly qps: number; readonly burst: number } | undefined;
}

export class BatchSink implements Sink {
  /** Accepted events not yet handed to the backend, throttled batches included. */
  private buffer: AuditEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  /** The timer fired (or shutdown began): send a batch even if it is short. */
  private flushDue = false;
  private pumping: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly limiter: TokenBucketRateLimiter | undefined;
  private stopped = false;
  private dropped = 0;

  constructor(
    private readonly backend: Backend,
    private readonly opts: BatchOptions,
    private readonly logger: ErrorLog,
    private readonly metrics: AuditMetrics,
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
        this.metrics.pluginError(BUFFER_PLUGIN, 1);
        // One line per burst of drops, not one per event.
        if (this.dropped === 1 || this.dropped % 1000 === 0)
          this.logger.error('Audit buffer queue blocked: dropping events', {
            sink: this.sinkName,
            dropped: this.dropped,
          });
        continue;
      }
      this.buffer.push(ev);
    }
    this.schedule();
    return Promise.resolve(true);
  }

  /**
   * A full batch (or any batch, when max wait is zero) goes out on the next turn of the event
   * loop, as kube hands it to its batch goroutine: the request that filled it is answered first,
   * and a burst of requests is sent in one go. A short batch waits for max wait, on one timer.
   */
  private schedule(): void {
    if (this.buffer.length === 0 || this.stopped) return;
    if (this.buffer.length >= this.opts.maxBatchSize || this.opts.maxBatchWaitMs === 0) {
      this.immediate ??= setImmediate(() => {
        this.immediate = undefined;
        if (this.opts.maxBatchWaitMs === 0) this.flushDue = true;
        this.pump();
      });
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.flushDue = true;
        this.pump();
      }, this.opts.maxBatchWaitMs);
    }
  }

  /** Hands batches to the backend, one throttle token each, while there are batches to send. */
  private pump(): void {
    this.pumping ??= this.sendBatches().finally(() => {
      this.pumping = undefined;
      // Events that arrived while the last token was awaited.
      if (this.buffer.length >= this.opts.maxBatchSize || (this.flushDue && this.buffer.length > 0))
        this.pump();
      else this.schedule();
    });
  }

  private async sendBatches(): Promise<void> {
    while (this.buffer.length >= this.opts.maxBatchSize || (this.flushDue && this.buffer.length > 0)) {
      await this.limiter?.wait();
      const batch = this.buffer.splice(0, this.opts.maxBatchSize);
      if (this.buffer.length === 0) {
        // What the timer waited for has gone; the next short batch starts its own wait.
        if (this.timer) clearTimeout(this.timer);
        this.timer = undefined;
      }
      // Batches are written concurrently, as kube's goroutine per batch; shutdown waits for all.
      const sent: Promise<void> = this.backend
        .write(batch)
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
    this.flushDue = this.stopped;
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = undefined;
    this.flushDue = true;
    this.pump();
    while (this.pumping) await this.pumping;
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    await this.backend.close();
  }
}
