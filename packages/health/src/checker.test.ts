import { describe, expect, it } from 'vitest';
import { namedCheck, pingCheck, shutdownCheck, timeoutCheck, type HealthChecker } from './checker.js';
import { healthHandler } from './handler.js';
import { request, serve } from './testing/serve.js';

const never = new AbortController().signal;

describe('built-in checks', () => {
  it('ping always passes', async () => {
    expect(pingCheck.name).toBe('ping');
    await expect(pingCheck.check(never)).resolves.toBeUndefined();
  });

  it('shutdown passes until its signal aborts, then fails', async () => {
    const stop = new AbortController();
    const check = shutdownCheck(stop.signal);
    expect(check.name).toBe('shutdown');
    await expect(check.check(never)).resolves.toBeUndefined();
    stop.abort();
    await expect(check.check(never)).rejects.toThrow('process is shutting down');
  });

  it.each([
    ['resolving', () => Promise.resolve(), undefined],
    ['returning nothing', () => undefined, undefined],
    ['rejecting', () => Promise.reject(new Error('down')), 'down'],
    [
      'throwing synchronously',
      () => {
        throw new Error('sync');
      },
      'sync',
    ],
  ])('namedCheck: a function %s', async (_case, fn, error) => {
    const check = namedCheck('x', fn);
    if (error === undefined) await expect(check.check(never)).resolves.toBeUndefined();
    else await expect(check.check(never)).rejects.toThrow(error);
  });

  it('namedCheck passes the signal on', async () => {
    const signal = new AbortController().signal;
    let seen: AbortSignal | undefined;
    await namedCheck('x', (s) => void (seen = s)).check(signal);
    expect(seen).toBe(signal);
  });

  it('namedCheck refuses an empty name', () => {
    expect(() => namedCheck('', () => undefined)).toThrow('a health check needs a non-empty name');
  });
});

describe('timeoutCheck', () => {
  const slow = (ms: number): HealthChecker & { aborted?: unknown } => {
    const check: HealthChecker & { aborted?: unknown } = {
      name: 'store',
      check: (signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            check.aborted = signal.reason as unknown;
          });
          setTimeout(resolve, ms);
        }),
    };
    return check;
  };

  it('passes a check that finishes within its budget, keeping the name', async () => {
    const check = timeoutCheck(slow(5), 1_000);
    expect(check.name).toBe('store');
    await expect(check.check(never)).resolves.toBeUndefined();
  });

  it('fails a check that outlives its budget and aborts its signal', async () => {
    const inner = slow(10_000);
    const started = Date.now();
    await expect(timeoutCheck(inner, 50).check(never)).rejects.toThrow(
      'health check "store" timed out after 50ms',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(inner.aborted).toEqual(new Error('health check "store" timed out after 50ms'));
  });

  it('keeps the wrapped failure when it fails first', async () => {
    await expect(
      timeoutCheck(
        namedCheck('x', () => Promise.reject(new Error('refused'))),
        1_000,
      ).check(never),
    ).rejects.toThrow('refused');
  });

  it('forwards the caller signal to the wrapped check', async () => {
    const caller = new AbortController();
    const inner = slow(200);
    const pending = timeoutCheck(inner, 1_000).check(caller.signal);
    caller.abort(new Error('client disconnected'));
    await pending;
    expect(inner.aborted).toEqual(new Error('client disconnected'));
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a budget of %s', (ms) => {
    expect(() => timeoutCheck(pingCheck, ms)).toThrow(
      `timeout for health check "ping" must be a positive number of milliseconds, got ${ms}`,
    );
  });

  it('turns a slow probe into a prompt 500 over HTTP', async () => {
    const { base, close } = await serve(
      healthHandler('/readyz', [pingCheck, timeoutCheck(slow(10_000), 50)]),
    );
    try {
      expect(await request(base, '/readyz')).toMatchObject({
        status: 500,
        body: '[+]ping ok\n[-]store failed: reason withheld\nreadyz check failed\n',
      });
      expect(await request(base, '/readyz/store')).toMatchObject({
        status: 500,
        body: 'internal server error: health check "store" timed out after 50ms\n',
      });
    } finally {
      await close();
    }
  });
});
