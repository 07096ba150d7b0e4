import { describe, expect, it } from 'vitest';
import { Backoff, newRateLimiter, TokenBucketRateLimiter, type Clock } from './index.js';

/** A clock that only moves when told; sleeps resolve once the clock has moved far enough. */
class FakeClock implements Clock {
  t = 0;
  private sleepers: { until: number; wake: () => void; fail: (e: unknown) => void }[] = [];
  readonly slept: number[] = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.slept.push(ms);
    return new Promise((wake, fail) => {
      const s = { until: this.t + ms, wake, fail };
      this.sleepers.push(s);
      signal?.addEventListener('abort', () => {
        this.sleepers = this.sleepers.filter((x) => x !== s);
        fail(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
      });
    });
  }

  async advance(ms: number): Promise<void> {
    this.t += ms;
    for (const s of this.sleepers.filter((x) => x.until <= this.t)) s.wake();
    this.sleepers = this.sleepers.filter((x) => x.until > this.t);
    await new Promise((r) => setImmediate(r));
  }
}

describe('TokenBucketRateLimiter', () => {
  it.each([
    // qps, burst, requests at t=0 -> the wait each one is given (ms)
    [5, 2, 5, [0, 0, 200, 400, 600]],
    [10, 1, 3, [0, 100, 200]],
    [50, 100, 3, [0, 0, 0]],
    [2, 0, 2, [0, 500]], // a burst below 1 still lets one request through at a time
  ])('qps %d burst %d: %d requests wait %j', async (qps, burst, n, waits) => {
    const clock = new FakeClock();
    const limiter = new TokenBucketRateLimiter(qps, burst, clock);
    const done: number[] = [];
    const all = Array.from({ length: n }, (_, i) => limiter.wait().then(() => done.push(i)));
    await clock.advance(0);
    expect(clock.slept.map(Math.round)).toEqual(waits.filter((w) => w > 0));
    expect(done).toEqual(waits.map((w, i) => (w === 0 ? i : -1)).filter((i) => i >= 0));
    await clock.advance(Math.max(...waits));
    await Promise.all(all);
    expect(done).toEqual(waits.map((_, i) => i));
  });

  it('refills at qps up to burst while idle', async () => {
    const clock = new FakeClock();
    const limiter = new TokenBucketRateLimiter(5, 2, clock);
    expect([limiter.tryAccept(), limiter.tryAccept(), limiter.tryAccept()]).toEqual([true, true, false]);
    await clock.advance(200);
    expect([limiter.tryAccept(), limiter.tryAccept()]).toEqual([true, false]);
    await clock.advance(10_000); // capped at burst, not 50 tokens
    expect([limiter.tryAccept(), limiter.tryAccept(), limiter.tryAccept()]).toEqual([true, true, false]);
  });

  it('a cancelled wait gives its token back and rejects with the reason', async () => {
    const clock = new FakeClock();
    const limiter = new TokenBucketRateLimiter(1, 1, clock);
    await limiter.wait();
    const ac = new AbortController();
    const waiting = limiter.wait(ac.signal);
    ac.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await clock.advance(1000);
    expect(limiter.tryAccept()).toBe(true);
    await expect(limiter.wait(AbortSignal.abort(new Error('early')))).rejects.toThrow('early');
  });

  it.each([
    [0, false],
    [-1, false],
    [0.5, true],
  ])('newRateLimiter(qps %d) limits: %s', (qps, limits) => {
    expect(newRateLimiter(qps, 10) !== undefined).toBe(limits);
  });

  it('refuses qps <= 0 when built directly', () => {
    expect(() => new TokenBucketRateLimiter(0, 1)).toThrow('qps must be greater than 0, got 0');
  });
});

describe('Backoff', () => {
  it.each([
    [
      'no jitter doubles up to the cap',
      { initialMs: 100, maxMs: 500, jitter: 0 },
      0.5,
      [100, 200, 400, 500, 500],
    ],
    [
      'full jitter adds up to 100%, still capped',
      { initialMs: 100, maxMs: 500, jitter: 1 },
      0.5,
      [150, 300, 500, 500],
    ],
    ['factor 3', { initialMs: 10, maxMs: 1000, factor: 3, jitter: 0 }, 0, [10, 30, 90, 270, 810, 1000]],
  ])('%s', (_what, opts, random, want) => {
    const b = new Backoff(opts, () => random);
    expect(want.map(() => b.next())).toEqual(want);
    b.reset();
    expect(b.next()).toBe(want[0]);
  });
});
