/**
 * Borrowing between priority levels (KEP-1040, upstream's updateBorrowing): every adjustment
 * period each level's seat demand (seats waiting plus seats executing, integrated over time) is
 * summarized and smoothed, and the server's nominal seats are dealt out again: every level gets
 * at least its lower bound (nominal less what it may lend, or less when its demand stayed
 * lower), at most its upper bound (nominal plus what it may borrow), and in between a share
 * proportional to its smoothed demand.
 */
// The module's binding: `globalThis.performance` is an accessor, and every request reads this clock.
import { performance } from 'node:perf_hooks';

/** upstream's borrowingAdjustmentPeriod. */
export const BORROWING_ADJUSTMENT_PERIOD_MS = 10_000;
/** upstream's seatDemandSmoothingCoefficient: how slowly a level's smoothed demand decays. */
const SMOOTHING = 0.977;
/** Targets below this count as this, so a level with no demand still gets its share of slack. */
const MIN_TARGET = 0.001;

/** The time integral of one level's seat demand since the last reset (upstream's Integrator). */
export class SeatDemand {
  private value = 0;
  private since: number;
  private start: number;
  private sum = 0;
  private sumSquares = 0;
  private max = 0;

  constructor(private readonly clock: () => number = () => performance.now()) {
    this.since = this.start = clock();
  }

  set(value: number): void {
    const now = this.clock();
    const dt = now - this.since;
    this.sum += this.value * dt;
    this.sumSquares += this.value * this.value * dt;
    this.since = now;
    this.value = value;
    if (value > this.max) this.max = value;
  }

  /** The period's average, standard deviation and maximum; the next period starts now. */
  reset(): { duration: number; average: number; deviation: number; max: number } {
    this.set(this.value);
    const duration = this.since - this.start;
    const average = duration > 0 ? this.sum / duration : 0;
    const variance = duration > 0 ? this.sumSquares / duration - average * average : 0;
    const out = { duration, average, deviation: Math.sqrt(Math.max(0, variance)), max: this.max };
    this.start = this.since;
    this.sum = this.sumSquares = 0;
    this.max = this.value;
    return out;
  }
}

/** upstream's seatDemandStats: the last period's high watermark and a smoothed envelope. */
export class SeatDemandStats {
  highWatermark = 0;
  average = 0;
  stdev = 0;
  smoothed = 0;

  update(obs: ReturnType<SeatDemand['reset']>): void {
    this.highWatermark = obs.max;
    this.average = obs.average;
    this.stdev = obs.deviation;
    if (obs.duration <= 0) return;
    const envelope = obs.average + obs.deviation;
    this.smoothed = Math.max(envelope, SMOOTHING * this.smoothed + (1 - SMOOTHING) * envelope);
  }
}

export interface AllocationItem {
  readonly lower: number;
  readonly upper: number;
  /** At least `lower`. */
  readonly target: number;
}

/**
 * The allocation summing to `total` where each item gets `fairFrac * target` clamped to its
 * bounds (upstream's computeConcurrencyAllocation has the same unique answer); undefined when
 * the bounds cannot sum to `total`.
 */
export function allocate(
  total: number,
  items: readonly AllocationItem[],
): { allocs: number[]; fairFrac: number } | undefined {
  const lowSum = items.reduce((s, i) => s + i.lower, 0);
  const highSum = items.reduce((s, i) => s + i.upper, 0);
  const eps = 1e-7;
  if (lowSum - total > eps || total - highSum > eps) return undefined;
  const targets = items.map((i) => Math.max(i.target, MIN_TARGET));
  const at = (frac: number): number[] =>
    items.map((i, k) => Math.max(i.lower, Math.min(i.upper, frac * (targets[k] ?? MIN_TARGET))));
  const sum = (frac: number): number => at(frac).reduce((s, a) => s + a, 0);
  // The clamped sum grows with fairFrac: bisect between a fraction where every item sits at its
  // lower bound and one where every item sits at its upper bound.
  let lo = 0;
  let hi = Math.max(...items.map((i, k) => i.upper / (targets[k] ?? MIN_TARGET)), 1);
  for (let n = 0; n < 200 && hi - lo > 1e-12 * hi; n++) {
    const mid = (lo + hi) / 2;
    if (sum(mid) < total) lo = mid;
    else hi = mid;
  }
  return { allocs: at(hi), fairFrac: hi };
}
