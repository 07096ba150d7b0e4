/**
 * One request's way through a priority level (the controller's handle()): its queue set's
 * callbacks, its handle, and its metrics, in one object rather than a closure per step, since
 * this runs for every request.
 */
import type { SeatDemand } from './borrowing.js';
import type { FlowCallbacks, RequestDescription, RequestHandle } from './controller.js';
import type { FlowSeries } from './observer.js';
import type { QueueSet, RejectReason, Ticket } from './queueset.js';

/** What a request changes of its level: an exempt level's counts, and the seat demand. */
export interface LevelState {
  readonly demand: SeatDemand;
  readonly exemptCounts: { executing: number; dispatched: number };
}

export const NOT_WAITING: RequestHandle = { cancel: () => false };

export class FlowRequest implements RequestHandle {
  /** ms since the epoch. */
  readonly queued = Date.now();
  private started = 0;
  private waiting = false;
  private settled = false;
  private ticket: Ticket | undefined;
  private queues: QueueSet | undefined;

  constructor(
    private readonly callbacks: FlowCallbacks,
    private readonly series: FlowSeries,
    private readonly seats: number,
    private readonly level: LevelState | undefined,
  ) {}

  start(queues: QueueSet, hash: bigint, description: RequestDescription): void {
    this.queues = queues;
    this.ticket = queues.start(hash, this, description);
    this.noteDemand();
    if (!this.settled) {
      this.waiting = true;
      this.series.waiting(1, this.seats);
    }
  }

  /** RequestCallbacks: the request may execute now (for an exempt level, at once). */
  dispatch(): void {
    this.settled = true;
    this.stopWaiting();
    this.started = Date.now();
    this.series.dispatched((this.started - this.queued) / 1000);
    this.series.executing(1, this.seats);
    this.callbacks.execute(this.done);
  }

  reject(reason: RejectReason): void {
    this.settled = true;
    this.stopWaiting();
    this.series.rejected(reason, (Date.now() - this.queued) / 1000);
    this.noteDemand();
    this.callbacks.reject(reason);
  }

  notAccommodated(): void {
    this.series.notAccommodated();
  }

  enqueued(queueLength: number): void {
    this.series.enqueued(queueLength);
  }

  cancel(reason: RejectReason): boolean {
    return this.ticket?.cancel(reason) ?? false;
  }

  /** Handed to execute(): the request finished. */
  private readonly done = (): void => {
    this.series.executing(-1, this.seats);
    this.series.executed((Date.now() - this.started) / 1000);
    if (!this.queues) {
      const level = this.level;
      if (level) {
        level.exemptCounts.executing--;
        level.demand.set(level.exemptCounts.executing);
      }
    } else if (this.ticket) this.finish();
    // Dispatched synchronously from start(), before the ticket was assigned: finish later.
    else queueMicrotask(() => this.finish());
  };

  private finish(): void {
    this.ticket?.finish();
    this.noteDemand();
  }

  private stopWaiting(): void {
    if (!this.waiting) return;
    this.waiting = false;
    this.series.waiting(-1, this.seats);
  }

  /** Seat demand (waiting plus executing) changes as a request arrives, is refused or finishes. */
  private noteDemand(): void {
    const qs = this.queues;
    if (qs && this.level) this.level.demand.set(qs.waitingSeats + qs.seatsInUse);
  }
}
