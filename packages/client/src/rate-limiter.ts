/**
 * Client-side request throttling: client-go's flowcontrol token bucket (golang.org/x/time/rate).
 * The bucket holds up to `burst` tokens, starts full and refills at `qps` tokens per second.
 * Every request takes one token; when none is left the caller waits its turn, and waiters are
 * served in the order they asked (each reserves a future token when it arrives).
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Time source; tests inject one to check the limiter without waiting. */
export interface Clock {
  /** Milliseconds on a monotonic scale. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) => sleep(ms, undefined, signal ? { signal } : {}),
};

export interface RateLimiter {
  /** Takes a token, waiting as long as needed; rejects when the signal aborts first. */
  wait(signal?: AbortSignal): Promise<void>;
  /** Takes a token if one is available now. */
  tryAccept(): boolean;
}

export class TokenBucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;
  private readonly burst: number;

  /** `qps` must be > 0; a `burst` below 1 is raised to 1 so that requests can pass at all. */
  constructor(
    readonly qps: number,
    burst: number,
    private readonly clock: Clock = realClock,
  ) {
    if (!(qps > 0)) throw new RangeError(`qps must be greater than 0, got ${qps}`);
    this.burst = Math.max(1, Math.floor(burst));
    this.tokens = this.burst;
    this.last = clock.now();
  }

  tryAccept(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  async wait(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.refill();
    // Reserve now, so that later callers queue behind this one even while it sleeps.
    this.tokens -= 1;
    if (this.tokens >= 0) return;
    const delay = (-this.tokens / this.qps) * 1000;
    try {
      await this.clock.sleep(delay, signal);
    } catch (err) {
      // A cancelled reservation gives its token back, as rate.Reservation.Cancel does.
      this.refill();
      this.tokens = Math.min(this.burst, this.tokens + 1);
      throw err;
    }
  }

  private refill(): void {
    const now = this.clock.now();
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.qps) / 1000);
  }
}

/** The limiter for `--platform-api-qps`/`--platform-api-burst`; undefined (no limit) when qps <= 0. */
export function newRateLimiter(
  qps: number,
  burst: number,
  clock: Clock = realClock,
): RateLimiter | undefined {
  return qps > 0 ? new TokenBucketRateLimiter(qps, burst, clock) : undefined;
}
