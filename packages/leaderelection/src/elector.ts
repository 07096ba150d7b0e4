/**
 * client-go's LeaderElector (tools/leaderelection), transport-free: it only talks to a {@link Lock}.
 * See api-semantics §13 for the algorithm. Expiry is always judged by when THIS process observed
 * a change of the record on its own clock, never by the renewTime written by another host, so
 * clock skew between candidates does not matter.
 */
import { discardLogger, type Logger } from '@keel/log';
import {
  systemClock,
  validateElectorConfig,
  type Clock,
  type LeaderElectorConfig,
  type RunResult,
} from './elector-config.js';
import type { Lock, LockGetResult } from './lock.js';
import { isConflictError } from './object-client.js';
import { JITTER_FACTOR } from './options.js';
import { microTimeString, type LeaderElectionRecord } from './record.js';
import { jitter, sleep, untilAborted } from './wait.js';

export class LeaderElector {
  private readonly lock: Lock;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly leaseMs: number;
  private readonly renewMs: number;
  private readonly retryMs: number;
  private observed: LeaderElectionRecord | undefined;
  private observedRawKey: string | undefined;
  private observedTime = 0;
  private reportedLeader = '';

  constructor(private readonly config: LeaderElectorConfig) {
    validateElectorConfig(config);
    this.lock = config.lock;
    this.clock = config.clock ?? systemClock;
    this.log = config.logger ?? discardLogger;
    this.leaseMs = config.leaseDuration.milliseconds;
    this.renewMs = config.renewDeadline.milliseconds;
    this.retryMs = config.retryPeriod.milliseconds;
  }

  /** Whether the last observed record names this candidate. */
  isLeader(): boolean {
    return this.observed?.holderIdentity === this.lock.identity();
  }

  /** The holder in the last observed record (`''` when none). */
  getLeader(): string {
    return this.observed?.holderIdentity ?? '';
  }

  /**
   * client-go Check: throws when this process believes it leads but has not renewed for longer
   * than the lease duration plus `maxTolerableExpiredLeaseMs` (it should have stepped down by now,
   * so something like a stuck event loop is keeping it from noticing).
   */
  check(maxTolerableExpiredLeaseMs: number): void {
    if (!this.isLeader()) return;
    if (this.clock.now() - this.observedTime > this.leaseMs + maxTolerableExpiredLeaseMs) {
      throw new Error(
        `failed election to renew leadership on lease ${this.config.name ?? this.lock.describe()}`,
      );
    }
  }

  /** Campaigns until leading, then renews until leadership is lost or `signal` aborts. */
  async run(signal: AbortSignal): Promise<RunResult> {
    try {
      if (!(await this.acquire(signal))) return 'cancelled';
      const leading = new AbortController();
      const follow = () => leading.abort(signal.reason);
      signal.addEventListener('abort', follow, { once: true });
      if (signal.aborted) follow();
      this.startLeading(leading.signal);
      const lost = await this.renew(signal);
      signal.removeEventListener('abort', follow);
      // The leader's work stops before anything else, so it never overlaps a successor.
      leading.abort(new Error(`leadership of ${this.lock.describe()} lost`));
      const released = this.config.releaseOnCancel === true && (await this.release());
      this.lock.recordEvent('stopped leading');
      if (lost) return 'lost';
      return released ? 'released' : 'cancelled';
    } finally {
      this.config.callbacks.onStoppedLeading();
    }
  }

  private startLeading(signal: AbortSignal): void {
    void Promise.resolve().then(() => this.config.callbacks.onStartedLeading(signal));
  }

  /** Tries every retryPeriod (jittered) until it acquires; false when `signal` aborted first. */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    const desc = this.lock.describe();
    this.log.info('Attempting to acquire leader lease...', { lease: desc });
    const random = this.config.random ?? Math.random;
    while (!signal.aborted) {
      const ok = await this.tryAcquireOrRenew(signal);
      this.maybeReportTransition();
      if (ok) {
        this.lock.recordEvent('became leader');
        this.log.info('Successfully acquired lease', { lease: desc });
        return true;
      }
      this.log.v(4).info('Failed to acquire lease', { lease: desc });
      if (!(await sleep(jitter(this.retryMs, JITTER_FACTOR, random), signal))) break;
    }
    return false;
  }

  /** Renews every retryPeriod; resolves true when leadership was lost, false when cancelled. */
  private async renew(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      const ok = await this.renewWithinDeadline(signal);
      this.maybeReportTransition();
      if (!ok) {
        if (signal.aborted) return false;
        this.log.info('Failed to renew lease', {
          lease: this.lock.describe(),
          err: new Error('timed out waiting for the condition'),
        });
        return true;
      }
      if (!(await sleep(this.retryMs, signal))) return false;
    }
    return false;
  }

  /** wait.PollImmediateUntil under a renewDeadline timeout: retries every retryPeriod. */
  private async renewWithinDeadline(signal: AbortSignal): Promise<boolean> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('renew deadline exceeded')), this.renewMs);
    const follow = () => deadline.abort(signal.reason);
    signal.addEventListener('abort', follow, { once: true });
    try {
      while (!deadline.signal.aborted) {
        if (await this.tryAcquireOrRenew(deadline.signal)) return true;
        if (!(await sleep(this.retryMs, deadline.signal))) break;
      }
      return false;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', follow);
    }
  }

  /** One attempt (api-semantics §13 steps 1-6). Never throws. */
  private async tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const now = this.clock.now();
    const nowText = microTimeString(now);
    const identity = this.lock.identity();
    let desired: LeaderElectionRecord = {
      holderIdentity: identity,
      leaseDurationSeconds: Math.floor(this.leaseMs / 1000),
      acquireTime: nowText,
      renewTime: nowText,
      leaderTransitions: 0,
    };
    const call = <T>(p: Promise<T>) => untilAborted(p, signal);
    const opts = { signal };

    if (this.observed && this.isLeader() && this.isLeaseValid(now)) {
      desired = {
        ...desired,
        acquireTime: this.observed.acquireTime,
        leaderTransitions: this.observed.leaderTransitions,
      };
      try {
        await call(this.lock.update(desired, opts));
        this.setObserved(desired);
        return true;
      } catch (err) {
        this.log.error('Failed to update lock optimistically, falling back to slow path', { err });
      }
    }

    let current: LockGetResult | undefined;
    try {
      current = await call(this.lock.get(opts));
    } catch (err) {
      this.log.error('Error retrieving resource lock', { lock: this.lock.describe(), err });
      return false;
    }
    if (!current) {
      try {
        await call(this.lock.create(desired, opts));
      } catch (err) {
        this.log.error('Error initially creating leader election record', { err });
        return false;
      }
      this.setObserved(desired);
      return true;
    }

    const rawKey = JSON.stringify(current.raw);
    if (rawKey !== this.observedRawKey) {
      this.setObserved(current.record);
      this.observedRawKey = rawKey;
    }
    const holder = current.record.holderIdentity;
    if (holder !== '' && this.isLeaseValid(now) && !this.isLeader()) {
      this.log.v(4).info('Lock is held and has not yet expired', { holder });
      return false;
    }

    desired = this.isLeader()
      ? {
          ...desired,
          acquireTime: current.record.acquireTime,
          leaderTransitions: current.record.leaderTransitions,
        }
      : { ...desired, leaderTransitions: current.record.leaderTransitions + 1 };
    try {
      await call(this.lock.update(desired, opts));
    } catch (err) {
      this.log.error('Failed to update lock', { err });
      return false;
    }
    this.setObserved(desired);
    return true;
  }

  /**
   * Steps down: an empty holder with a one-second lease, so others take over at once. Re-reads
   * first for a current resourceVersion and retries on a conflict, within renewDeadline.
   */
  private async release(): Promise<boolean> {
    // A fresh deadline: the run signal has usually aborted already, which is why we release.
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(new Error('release deadline exceeded')), this.renewMs);
    const signal = stop.signal;
    try {
      while (!signal.aborted) {
        const current = await untilAborted(this.lock.get({ signal }), signal);
        if (!current) {
          this.log.info('Lease lock not found', { lock: this.lock.describe() });
          return false;
        }
        this.setObserved(current.record);
        if (!this.isLeader()) return true;
        const nowText = microTimeString(this.clock.now());
        const released: LeaderElectionRecord = {
          holderIdentity: '',
          leaseDurationSeconds: 1,
          acquireTime: nowText,
          renewTime: nowText,
          leaderTransitions: current.record.leaderTransitions,
        };
        try {
          await untilAborted(this.lock.update(released, { signal }), signal);
          this.setObserved(released);
          return true;
        } catch (err) {
          if (!isConflictError(err)) throw err;
        }
      }
      return false;
    } catch (err) {
      this.log.error('Failed to release lock', { err });
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + (this.observed?.leaseDurationSeconds ?? 0) * 1000 > now;
  }

  private setObserved(record: LeaderElectionRecord): void {
    this.observed = record;
    this.observedTime = this.clock.now();
  }

  private maybeReportTransition(): void {
    const holder = this.getLeader();
    if (holder === this.reportedLeader) return;
    this.reportedLeader = holder;
    this.config.callbacks.onNewLeader?.(holder);
  }
}
