import type { RejectReason } from './queueset.js';

/**
 * One flow's series (a FlowSchema with its priority level), bound once per schema and level so a
 * request costs no label lookups: the controller keeps it with the schema.
 */
export interface FlowSeries {
  /** delta +1 / -1 as a request of `seats` seats starts or stops waiting. */
  waiting(delta: number, seats: number): void;
  /** delta +1 / -1 as a request of `seats` seats starts or stops executing. */
  executing(delta: number, seats: number): void;
  dispatched(waitSeconds: number): void;
  rejected(reason: RejectReason, waitSeconds: number): void;
  executed(seconds: number): void;
  /** The seats a request was estimated to take. */
  estimated(seats: number): void;
  /** The flow's request at the head of the fair order found too few free seats to start. */
  notAccommodated(): void;
  /** The length of the request's queue once it joined it (itself included). */
  enqueued(queueLength: number): void;
}

/** A level's seat demand over the last borrowing adjustment period (upstream's seatDemandStats). */
export interface SeatDemandSummary {
  readonly highWatermark: number;
  readonly average: number;
  readonly stdev: number;
  readonly smoothed: number;
}

/** What the controller tells the metrics about. */
export interface FlowObserver {
  /**
   * A level's seats as upstream derives them: nominal, the lower bound (nominal less what it may
   * lend) and the upper bound (nominal plus what it may borrow).
   */
  concurrencyLimit(level: string, limit: number, lower: number, upper: number): void;
  /** The seats a level has now, after borrowing; `fairFrac` is the allocation's fair fraction. */
  currentLimit(level: string, current: number, target: number, fairFrac: number): void;
  /** A level's seat demand, summarized at each borrowing adjustment. */
  seatDemand(level: string, demand: SeatDemandSummary): void;
  /** The series of requests of `schema` in `level`; called once per schema and level. */
  flow(level: string, schema: string): FlowSeries;
}

const NO_SERIES: FlowSeries = {
  waiting: () => undefined,
  executing: () => undefined,
  dispatched: () => undefined,
  rejected: () => undefined,
  executed: () => undefined,
  estimated: () => undefined,
  notAccommodated: () => undefined,
  enqueued: () => undefined,
};

export const NO_OBSERVER: FlowObserver = {
  concurrencyLimit: () => undefined,
  currentLimit: () => undefined,
  seatDemand: () => undefined,
  flow: () => NO_SERIES,
};
