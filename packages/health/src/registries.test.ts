import { describe, expect, it } from 'vitest';
import { namedCheck, pingCheck, shutdownCheck, type HealthChecker } from './checker.js';
import type { HealthHandler } from './handler.js';
import { HealthRegistries, type Clock } from './registries.js';
import { request, serve } from './testing/serve.js';

class FakeClock implements Clock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
}

const storeDown = namedCheck('store', () => {
  throw new Error('store unreachable');
});

async function withServer(
  handler: HealthHandler,
  fn: (get: (target: string) => Promise<[number, string]>) => Promise<void>,
): Promise<void> {
  const { base, close } = await serve(handler);
  try {
    await fn(async (target) => {
      const reply = await request(base, target);
      return [reply.status, reply.body];
    });
  } finally {
    await close();
  }
}

describe('livez grace period for boot-sequence checks', () => {
  const grace = 10_000;

  it.each([
    ['at start', 1_000, 200],
    ['just before the period ends', 1_000 + grace - 1, 200],
    ['when the period ends', 1_000 + grace, 500],
    ['long after', 1_000 + 10 * grace, 500],
  ])('%s (t=%i): /livez answers %i; healthz and readyz never wait', async (_case, now, livezStatus) => {
    const clock = new FakeClock(1_000);
    const registries = new HealthRegistries({ livezGracePeriodMs: grace, clock });
    registries.addHealthChecks(pingCheck);
    registries.addBootSequenceChecks(storeDown);
    clock.t = now;
    await withServer(registries.install(), async (get) => {
      const livez = await get('/livez?verbose');
      expect(livez[0]).toBe(livezStatus);
      expect(livez[1]).toBe(
        livezStatus === 200
          ? '[+]ping ok\n[+]store ok\nlivez check passed\n'
          : '[+]ping ok\n[-]store failed: reason withheld\nlivez check failed\n',
      );
      expect((await get('/livez/store'))[0]).toBe(livezStatus);
      expect(await get('/healthz')).toEqual([
        500,
        '[+]ping ok\n[-]store failed: reason withheld\nhealthz check failed\n',
      ]);
      expect(await get('/readyz/store')).toEqual([500, 'internal server error: store unreachable\n']);
    });
  });

  it('counts from an explicit startTime', async () => {
    const clock = new FakeClock(50_000);
    const registries = new HealthRegistries({ livezGracePeriodMs: grace, clock, startTime: 45_000 });
    registries.addBootSequenceChecks(storeDown);
    await withServer(registries.install(), async (get) => {
      expect((await get('/livez'))[0]).toBe(200);
      clock.t = 55_000;
      expect((await get('/livez'))[0]).toBe(500);
    });
  });

  it.each([
    ['a zero grace period', 0, (r: HealthRegistries, c: HealthChecker) => r.addBootSequenceChecks(c)],
    ['addHealthChecks', grace, (r: HealthRegistries, c: HealthChecker) => r.addHealthChecks(c)],
    ['addLivezChecks', grace, (r: HealthRegistries, c: HealthChecker) => r.addLivezChecks(c)],
  ])('has no effect with %s', async (_case, livezGracePeriodMs, add) => {
    const registries = new HealthRegistries({ livezGracePeriodMs, clock: new FakeClock(0) });
    add(registries, storeDown);
    await withServer(registries.install(), async (get) => {
      expect(await get('/livez')).toEqual([500, '[-]store failed: reason withheld\nlivez check failed\n']);
    });
  });

  it.each([-1, Number.NaN])('refuses a grace period of %s', (ms) => {
    expect(() => new HealthRegistries({ livezGracePeriodMs: ms })).toThrow(
      `livez grace period must not be negative, got ${ms}`,
    );
  });
});

describe('HealthRegistries', () => {
  it('puts each check on the endpoints its add method names', async () => {
    const registries = new HealthRegistries();
    registries.addHealthChecks(
      pingCheck,
      namedCheck('log', () => undefined),
    );
    registries.addReadyzChecks(namedCheck('informer-sync', () => undefined));
    registries.addLivezChecks(namedCheck('live-only', () => undefined));
    await withServer(registries.install(), async (get) => {
      expect(await get('/healthz?verbose')).toEqual([200, '[+]ping ok\n[+]log ok\nhealthz check passed\n']);
      expect(await get('/livez?verbose')).toEqual([
        200,
        '[+]ping ok\n[+]log ok\n[+]live-only ok\nlivez check passed\n',
      ]);
      expect(await get('/readyz?verbose')).toEqual([
        200,
        '[+]ping ok\n[+]log ok\n[+]informer-sync ok\nreadyz check passed\n',
      ]);
      expect(await get('/livez/informer-sync')).toEqual([404, '404 page not found\n']);
    });
  });

  it('serves ping on endpoints that got no checks', async () => {
    await withServer(new HealthRegistries().install(), async (get) => {
      expect(await get('/readyz?verbose')).toEqual([200, '[+]ping ok\nreadyz check passed\n']);
    });
  });

  it('turns readyz red on shutdown while livez and healthz stay green', async () => {
    const stop = new AbortController();
    const registries = new HealthRegistries();
    registries.addHealthChecks(pingCheck);
    registries.addReadyzChecks(shutdownCheck(stop.signal));
    await withServer(registries.install(), async (get) => {
      expect(await get('/readyz')).toEqual([200, 'ok']);
      stop.abort();
      expect(await get('/readyz')).toEqual([
        500,
        '[+]ping ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n',
      ]);
      expect(await get('/readyz/shutdown')).toEqual([
        500,
        'internal server error: process is shutting down\n',
      ]);
      expect(await get('/livez')).toEqual([200, 'ok']);
      expect(await get('/healthz')).toEqual([200, 'ok']);
      expect((await get('/livez/shutdown'))[0]).toBe(404);
    });
  });

  it.each([
    ['addHealthChecks', (r: HealthRegistries) => r.addHealthChecks(pingCheck), '/healthz'],
    ['addBootSequenceChecks', (r: HealthRegistries) => r.addBootSequenceChecks(pingCheck), '/healthz'],
    ['addReadyzChecks', (r: HealthRegistries) => r.addReadyzChecks(pingCheck), '/readyz'],
    ['addLivezChecks', (r: HealthRegistries) => r.addLivezChecks(pingCheck), '/livez'],
  ])('refuses %s after install', (_case, add, path) => {
    const registries = new HealthRegistries();
    registries.install();
    expect(() => add(registries)).toThrow(
      `unable to add because the ${path} endpoint has already been created`,
    );
  });

  it('installs once', () => {
    const registries = new HealthRegistries();
    registries.install();
    expect(() => registries.install()).toThrow('health handlers have already been installed');
  });

  it('refuses a duplicate name without adding it anywhere', async () => {
    const registries = new HealthRegistries();
    registries.addReadyzChecks(namedCheck('store', () => undefined));
    expect(() => registries.addHealthChecks(storeDown)).toThrow(
      'unable to add health check "store" to /readyz: the name is already registered',
    );
    expect(() => registries.addLivezChecks(pingCheck, pingCheck)).toThrow(
      'unable to add health check "ping" to /livez: the name is already registered',
    );
    await withServer(registries.install(), async (get) => {
      expect((await get('/healthz/store'))[0]).toBe(404);
      expect(await get('/readyz')).toEqual([200, 'ok']);
      expect(await get('/livez?verbose')).toEqual([200, '[+]ping ok\nlivez check passed\n']);
    });
  });

  it('reports failures on every path to onFailure and the first ready to onFirstReady', async () => {
    const seen: string[] = [];
    let ready = 0;
    const registries = new HealthRegistries();
    registries.addLivezChecks(storeDown);
    const handler = registries.install({
      onFailure: (path, name, err) => seen.push(`${path} ${name}: ${(err as Error).message}`),
      onFirstReady: () => ready++,
    });
    await withServer(handler, async (get) => {
      await get('/livez');
      await get('/livez/store');
      await get('/healthz');
      await get('/readyz');
      await get('/readyz');
    });
    expect(seen).toEqual(['/livez store: store unreachable', '/livez/store store: store unreachable']);
    expect(ready).toBe(1);
  });
});
