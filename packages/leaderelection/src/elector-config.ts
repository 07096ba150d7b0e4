/** What a {@link LeaderElector} is built from (client-go LeaderElectionConfig) and its checks. */
import type { Duration } from '@keel/flags';
import type { Logger } from '@keel/log';
import type { Lock } from './lock.js';
import { JITTER_FACTOR } from './options.js';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface LeaderCallbacks {
  /**
   * Called once leadership is acquired, and not awaited: it runs alongside the renew loop until
   * `signal` aborts (leadership lost or the elector cancelled). A rejection is left unhandled,
   * which ends the process, as a panic in client-go's goroutine would.
   */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Called when {@link LeaderElector.run} ends, whatever the reason (client-go defers it in Run). */
  onStoppedLeading(): void;
  /** Called with the holder's identity each time the observed holder changes. */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectorConfig {
  readonly lock: Lock;
  /** How long non-leaders wait after observing a renewal before they may take over. */
  readonly leaseDuration: Duration;
  /** How long the leader keeps retrying a renewal before it gives up leadership. */
  readonly renewDeadline: Duration;
  /** The pause between attempts to acquire or renew. */
  readonly retryPeriod: Duration;
  /** Give the lock up when run's signal aborts, so another candidate need not wait for expiry. */
  readonly releaseOnCancel?: boolean;
  readonly callbacks: LeaderCallbacks;
  /** Names the election in the health check's message; defaults to the lock's description. */
  readonly name?: string;
  readonly clock?: Clock;
  /** Source of the acquire loop's jitter, in [0, 1). */
  readonly random?: () => number;
  readonly logger?: Logger;
}

/**
 * How run ended: `lost` when a renewal failed for the whole renew deadline; `released` when
 * cancelled while leading and the lock was given up (or already named someone else); `cancelled`
 * otherwise (cancelled before leading, or without or after a failed release).
 */
export type RunResult = 'lost' | 'released' | 'cancelled';

export const systemClock: Clock = { now: () => Date.now() };

/** client-go NewLeaderElector's checks, with its messages. */
export function validateElectorConfig(c: LeaderElectorConfig): void {
  const lease = c.leaseDuration.milliseconds;
  const renew = c.renewDeadline.milliseconds;
  const retry = c.retryPeriod.milliseconds;
  const problems: string[] = [];
  if (lease <= renew) problems.push('leaseDuration must be greater than renewDeadline');
  if (renew <= JITTER_FACTOR * retry)
    problems.push('renewDeadline must be greater than retryPeriod*JitterFactor');
  // client-go requires at least one nanosecond; a millisecond is our clock's resolution.
  if (lease < 1) problems.push('leaseDuration must be greater than zero');
  if (renew < 1) problems.push('renewDeadline must be greater than zero');
  if (retry < 1) problems.push('retryPeriod must be greater than zero');
  if (c.lock.identity() === '') problems.push('Lock identity is empty');
  if (problems.length > 0) throw new Error(problems.join('; '));
}
