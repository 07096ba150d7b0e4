import { startRedisServer, TestApiServer, type ApiResponse, type RedisServer } from '@keel/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENTS, eventBody, LIVEZ_CHECKS, READYZ_CHECKS, verboseBody } from './support/fixtures.js';
import { eventually, timed } from './support/http.js';

// Redis going away under a running server, and Redis missing at start. Each test owns a
// dedicated redis-server: the run's shared one is never stopped.

const STORE_FAILED = { store: '[-]store failed: reason withheld' };
/** Hooks that wait for the store while it is down; the others need no store. */
const STORE_HOOKS = READYZ_CHECKS.filter(
  (c) =>
    c.startsWith('poststarthook/') &&
    ![
      'poststarthook/start-platform-apiserver-admission-initializer',
      'poststarthook/start-apiextensions-controllers',
      'poststarthook/priority-and-fairness-filter',
      'poststarthook/apiservice-openapi-controller',
    ].includes(c),
);

let redis: RedisServer | undefined;
let server: TestApiServer | undefined;
afterEach(async () => {
  await server?.stop('SIGKILL');
  await redis?.close();
  server = undefined;
  redis = undefined;
});

function expectStatusBody(r: ApiResponse): void {
  expect(r.status).toBeGreaterThanOrEqual(500);
  expect(r.headers['content-type']).toBe('application/json');
  expect(r.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: r.status });
  expect((r.json as { message: string }).message).not.toBe('');
  expect(r.text).not.toMatch(/\n\s+at /);
}

describe('store outage (dedicated Redis)', () => {
  it('probes report the store, requests fail fast, and everything recovers by itself', async () => {
    redis = await startRedisServer();
    server = await TestApiServer.start({ redisUrl: redis.url });
    await server.ready();
    expect((await server.request('POST', EVENTS, { body: eventBody('before') })).status).toBe(201);

    await redis.stop();

    for (const root of ['healthz', 'livez', 'readyz'] as const) {
      const checks = root === 'readyz' ? READYZ_CHECKS : LIVEZ_CHECKS;
      const r = await server.request('GET', `/${root}`);
      expect({ status: r.status, text: r.text }).toEqual({
        status: 500,
        text: verboseBody(root, checks, STORE_FAILED),
      });
      expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    // The warn line for unknown excludes is part of the (always verbose) failure body too.
    expect((await server.request('GET', '/readyz?exclude=nope&exclude=a,b')).text).toBe(
      verboseBody('readyz', READYZ_CHECKS, STORE_FAILED, [
        'warn: some health checks cannot be excluded: no matches for "a,b","nope"',
      ]),
    );
    expect((await server.request('GET', '/livez?exclude=store')).text).toBe('ok');
    const one = await server.request('GET', '/readyz/store');
    expect(one.status).toBe(500);
    expect(one.text).toMatch(/^internal server error: .+\n$/);

    for (const [method, path, body] of [
      ['GET', EVENTS, undefined],
      ['GET', `${EVENTS}/before`, undefined],
      ['POST', EVENTS, eventBody('during')],
      ['DELETE', `${EVENTS}/before`, undefined],
    ] as const) {
      const { value, ms } = await timed(() => server!.request(method, path, body ? { body } : {}));
      expectStatusBody(value);
      expect(ms, `${method} ${path} answered in ${ms} ms`).toBeLessThan(5_000);
    }

    await redis.restart();
    const ready = await eventually(
      () => server!.request('GET', '/readyz'),
      (r) => r.status === 200,
      15_000,
    );
    expect(ready.text).toBe('ok');
    const before = await server.request('GET', `${EVENTS}/before`);
    expect(before.status).toBe(200);
    expect(before.json).toMatchObject({
      metadata: { name: 'before' },
      note: 'written by the end-to-end suite',
    });
    expect((await server.request('POST', EVENTS, { body: eventBody('after') })).status).toBe(201);
    expect((await server.request('GET', `${EVENTS}/during`)).status).toBe(404);
  });

  it('Redis down at start: --livez-grace-period keeps /livez 200 while /readyz is 500, then recovers', async () => {
    redis = await startRedisServer();
    await redis.stop();
    server = await TestApiServer.start({ redisUrl: redis.url, args: ['--livez-grace-period=1m'] });

    const livez = await server.request('GET', '/livez?verbose');
    expect({ status: livez.status, text: livez.text }).toEqual({
      status: 200,
      text: verboseBody('livez', LIVEZ_CHECKS),
    });
    const failed = Object.fromEntries(
      [...STORE_HOOKS, 'store', 'autoregister-completion'].map((c) => [c, `[-]${c} failed: reason withheld`]),
    );
    const readyz = await server.request('GET', '/readyz');
    expect({ status: readyz.status, text: readyz.text }).toEqual({
      status: 500,
      text: verboseBody('readyz', READYZ_CHECKS, failed),
    });
    expect((await server.request('GET', '/readyz/poststarthook/bootstrap-controller')).text).toBe(
      'internal server error: not finished\n',
    );
    // /healthz has no grace period.
    expect((await server.request('GET', '/healthz')).status).toBe(500);

    await redis.restart();
    await server.ready(15_000);
    expect((await server.request('POST', EVENTS, { body: eventBody('late') })).status).toBe(201);
    expect((await server.request('GET', '/livez')).text).toBe('ok');
  });

  it('Redis down at start without a grace period: /livez is 500 too, and the server stays up', async () => {
    redis = await startRedisServer();
    await redis.stop();
    server = await TestApiServer.start({ redisUrl: redis.url });
    const livez = await server.request('GET', '/livez');
    expect(livez.status).toBe(500);
    expect(livez.text).toContain('[-]store failed: reason withheld\n');
    expect(livez.text).toContain('[-]poststarthook/bootstrap-controller failed: reason withheld\n');
    expect(livez.text.endsWith('livez check failed\n')).toBe(true);

    await redis.restart();
    await server.ready(15_000);
    expect(server.process.child.exitCode).toBeNull();
  });

  it('SIGTERM while hooks wait for the store exits 0', async () => {
    redis = await startRedisServer();
    await redis.stop();
    server = await TestApiServer.start({ redisUrl: redis.url });
    expect((await server.request('GET', '/readyz')).status).toBe(500);
    const s = server;
    server = undefined;
    expect(await s.stop('SIGTERM')).toBe(0);
    expect(s.process.stderr).not.toContain('A post-start hook failed');
  });
});
