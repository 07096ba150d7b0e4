import type { RejectReason } from './queueset.js';

/** What the controller tells the metrics about; every call names the schema and the level. */
export interface FlowObserver {
  /**
   * A level's seats as upstream derives them: nominal, the lower bound (nominal less what it may
   * lend) and the upper bound (nominal plus what it may borrow).
   */
  concurrencyLimit(level: string, limit: number, lower: number, upper: number): void;
  /** The seats a level has now, after borrowing; `fairFrac` is the allocation's fair fraction. */
  currentLimit(level: string, current: number, target: number, fairFrac: number): void;
  /** delta +1 / -1 as a request starts or stops waiting. */
  waiting(level: string, schema: string, delta: number): void;
  executing(level: string, schema: string, delta: number): void;
  dispatched(level: string, schema: string, waitSeconds: number): void;
  rejected(level: string, schema: string, reason: RejectReason, waitSeconds: number): void;
  executed(level: string, schema: string, seconds: number): void;
  /** The seats a request was estimated to take. */
  estimated(level: string, schema: string, seats: number): void;
}

export const NO_OBSERVER: FlowObserver = {
  concurrencyLimit: () => undefined,
  currentLimit: () => undefined,
  waiting: () => undefined,
  executing: () => undefined,
  dispatched: () => undefined,
  rejected: () => undefined,
  executed: () => undefined,
  estimated: () => undefined,
};
