import { TestApiServer, USER_TOKEN, type ApiResponse } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVEZ_CHECKS, READYZ_CHECKS, stores, verboseBody } from './support/fixtures.js';

// The probe paths through the built daemon over HTTPS: bodies, statuses and headers are compared
// exactly, since operators and load balancers read them as-is (api-semantics §9).

const ROOTS = ['healthz', 'livez', 'readyz'] as const;
const checksOf = (root: (typeof ROOTS)[number]) => (root === 'readyz' ? READYZ_CHECKS : LIVEZ_CHECKS);

function expectText(r: ApiResponse, status: number, text: string): void {
  expect({ status: r.status, text: r.text }).toEqual({ status, text });
  expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(r.headers['x-content-type-options']).toBe('nosniff');
}

describe.each(stores)('health probes (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;

  beforeAll(async () => {
    server = await TestApiServer.start(redisUrl ? { redisUrl } : {});
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(ROOTS)('/%s without verbose is 200 "ok" with no newline', async (root) => {
    expectText(await server.request('GET', `/${root}`), 200, 'ok');
  });

  it.each(
    ROOTS.flatMap((root) =>
      ['verbose', 'verbose=false', 'verbose=0', 'verbose=', 'verbose=true'].map((q) => [root, q]),
    ),
  )('/%s?%s lists every check in order, then "<root> check passed"', async (root, query) => {
    const r = ROOTS.find((x) => x === root) ?? 'readyz';
    expectText(await server.request('GET', `/${root}?${query}`), 200, verboseBody(r, checksOf(r)));
  });

  it('every check name of the spec appears in readyz; shutdown only there', async () => {
    const ready = (await server.request('GET', '/readyz?verbose')).text;
    for (const name of READYZ_CHECKS) expect(ready).toContain(`[+]${name} ok\n`);
    for (const root of ['livez', 'healthz']) {
      const text = (await server.request('GET', `/${root}?verbose`)).text;
      for (const name of LIVEZ_CHECKS) expect(text).toContain(`[+]${name} ok\n`);
      expect(text).not.toContain('shutdown');
    }
  });

  it.each(ROOTS)('/%s: a repeated exclude skips each named check, verbose in any order', async (root) => {
    const excluded = { store: '[+]store excluded: ok', log: '[+]log excluded: ok' };
    const want = verboseBody(root, checksOf(root), excluded);
    expectText(await server.request('GET', `/${root}?exclude=store&verbose&exclude=log`), 200, want);
    expectText(await server.request('GET', `/${root}?verbose=1&exclude=log&exclude=store`), 200, want);
  });

  it('excludes names containing a slash', async () => {
    const name = 'poststarthook/bootstrap-controller';
    const want = verboseBody('readyz', READYZ_CHECKS, { [name]: `[+]${name} excluded: ok` });
    expectText(await server.request('GET', `/readyz?verbose&exclude=${encodeURIComponent(name)}`), 200, want);
    expectText(await server.request('GET', `/readyz?verbose&exclude=${name}`), 200, want);
  });

  it('exclude=a,b is one name: nothing is excluded and the warn line names it', async () => {
    expectText(
      await server.request('GET', '/readyz?verbose&exclude=ping,log'),
      200,
      verboseBody('readyz', READYZ_CHECKS, {}, [
        'warn: some health checks cannot be excluded: no matches for "ping,log"',
      ]),
    );
  });

  it('unknown excludes are sorted, Go-quoted and joined by commas; known ones still apply', async () => {
    expectText(
      await server.request('GET', '/livez?exclude=zz&verbose&exclude=ping&exclude=a%22b&exclude=ab'),
      200,
      verboseBody('livez', LIVEZ_CHECKS, { ping: '[+]ping excluded: ok' }, [
        'warn: some health checks cannot be excluded: no matches for "a\\"b","ab","zz"',
      ]),
    );
  });

  it('without verbose a passing probe is "ok" even with unknown excludes', async () => {
    expectText(await server.request('GET', '/readyz?exclude=nope'), 200, 'ok');
  });

  it.each([
    ...READYZ_CHECKS.map((c) => ['readyz', c]),
    ...LIVEZ_CHECKS.map((c) => ['livez', c]),
    ['healthz', 'store'],
  ])('/%s/%s is 200 "ok"', async (root, name) => {
    expectText(await server.request('GET', `/${root}/${name}`), 200, 'ok');
  });

  it('per-check paths ignore verbose and exclude', async () => {
    expectText(await server.request('GET', '/readyz/ping?verbose&exclude=ping'), 200, 'ok');
    expectText(await server.request('GET', '/readyz/poststarthook/bootstrap-controller?verbose'), 200, 'ok');
  });

  it.each([
    '/livez/nope',
    '/livez/',
    '/readyz/',
    '/healthz/nope',
    '/livez/shutdown',
    '/healthz/shutdown',
    '/readyz/poststarthook',
    '/readyz/poststarthook/',
    '/readyz/ping/',
    '/readyz/poststarthook/no-such-hook',
  ])('%s is the plain-text 404', async (path) => {
    expectText(await server.request('GET', path), 404, '404 page not found\n');
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s is served like GET', async (method) => {
    expectText(await server.request(method, '/livez'), 200, 'ok');
    expectText(await server.request(method, '/readyz/ping'), 200, 'ok');
  });

  it('HEAD answers the status and headers without a body', async () => {
    const r = await server.request('HEAD', '/readyz');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.text).toBe('');
  });

  it.each([
    ['anonymous', null],
    ['a user outside system:masters', USER_TOKEN],
  ])('probes answer %s (AlwaysAllow)', async (_who, token) => {
    for (const root of ROOTS) expectText(await server.request('GET', `/${root}`, { token }), 200, 'ok');
  });

  it('every probe response carries an Audit-ID', async () => {
    for (const path of ['/readyz', '/livez/nope', '/healthz?verbose']) {
      expect((await server.request('GET', path)).headers['audit-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
