import { TestApiServer, USER_TOKEN, type ApiResponse } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, eventBody, statusText, stores, UNAUTHORIZED } from './support/fixtures.js';
import { open, openWatch, rawRequest, rawTarget, type RawResponse } from './support/http.js';

// The filter chain seen from outside: Audit-ID, the request timeout, HSTS, CORS, the not-found
// answers, the body size limit and what a broken request target gets. In-flight caps: inflight.test.ts.

const HSTS = 'max-age=31536000; includeSubDomains';
const ORIGIN = 'https://good.example.com';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A list that waits for a resourceVersion the store never reaches (about 3 s, then a 504 of its own). */
const SLOW_LIST = `${EVENTS}?resourceVersion=999999999&resourceVersionMatch=NotOlderThan`;
const TIMEOUT = statusText(
  504,
  'Timeout',
  'Timeout: request did not complete within the allotted timeout',
  {},
);
const NOT_FOUND = statusText(404, 'NotFound', 'the server could not find the requested resource', {});
const TOO_LARGE = statusText(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
const LIMIT = 3 * 1024 * 1024;

describe.each(stores)('filters (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  let denying: TestApiServer;
  beforeAll(async () => {
    const common = redisUrl ? { redisUrl } : {};
    [server, denying] = await Promise.all([
      TestApiServer.start({
        ...common,
        args: [
          '--request-timeout=1s',
          '--strict-transport-security-directives=max-age=31536000,includeSubDomains',
          `--cors-allowed-origins=^https://good\\.example\\.com$,^https://other\\.example\\.org$`,
        ],
      }),
      TestApiServer.start({ ...common, args: ['--authorization-mode=AlwaysDeny'] }),
    ]);
    await Promise.all([server.ready(), denying.ready()]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), denying?.stop()]);
  });

  type Call = (
    s: { main: TestApiServer; deny: TestApiServer },
    h: Record<string, string>,
  ) => Promise<ApiResponse>;
  const calls: [string, number, Call][] = [
    ['a probe', 200, ({ main }, headers) => main.request('GET', '/livez', { headers })],
    ['a list', 200, ({ main }, headers) => main.request('GET', EVENTS, { headers })],
    ['a bad token', 401, ({ main }, headers) => main.request('GET', EVENTS, { headers, token: 'nope' })],
    [
      'a forbidden request',
      403,
      ({ deny }, headers) => deny.request('GET', EVENTS, { headers, token: USER_TOKEN }),
    ],
    [
      'an unknown API path',
      404,
      ({ main }, headers) => main.request('GET', '/apis/nope/v1/things', { headers }),
    ],
    ['an unknown path', 404, ({ main }, headers) => main.request('GET', '/nothing', { headers })],
    ['an unknown check', 404, ({ main }, headers) => main.request('GET', '/livez/nope', { headers })],
    ['a missing event', 404, ({ main }, headers) => main.request('GET', `${EVENTS}/missing`, { headers })],
    [
      'a body over the limit',
      413,
      ({ main }, headers) => main.request('POST', EVENTS, { headers, body: 'x'.repeat(LIMIT + 1) }),
    ],
    ['a timed-out request', 504, ({ main }, headers) => main.request('GET', SLOW_LIST, { headers })],
  ];

  it.each(calls)(
    'Audit-ID on %s (%i): a fresh UUID, or the one the client sent',
    async (_what, status, call) => {
      const servers = { main: server, deny: denying };
      const fresh = await call(servers, {});
      expect(fresh.status).toBe(status);
      expect(fresh.headers['audit-id']).toMatch(UUID);
      const echoed = await call(servers, { 'Audit-ID': 'e2e-audit-42' });
      expect([echoed.status, echoed.headers['audit-id']]).toEqual([status, 'e2e-audit-42']);
    },
  );

  it('a non-long-running request over --request-timeout is a 504 Status; the server goes on', async () => {
    const r = await server.request('GET', SLOW_LIST);
    expect([r.status, r.text]).toEqual([504, TIMEOUT]);
    expect(r.headers['content-type']).toBe('application/json');
    expect((await server.request('POST', EVENTS, { body: eventBody('after-timeout') })).status).toBe(201);
    expect((await server.request('GET', '/readyz')).text).toBe('ok');
  });

  it('a watch is exempt from --request-timeout and ends cleanly at its own timeoutSeconds', async () => {
    const watch = await openWatch(server, `${EVENTS}?watch=true&timeoutSeconds=2`);
    expect(watch.status).toBe(200);
    await expect(watch.ended).resolves.toBeUndefined();
    expect(watch.events.every((e) => e.type === 'ADDED')).toBe(true);
  });

  it.each([
    ['200', () => server.request('GET', '/livez')],
    ['401', () => server.request('GET', EVENTS, { token: 'nope' })],
    ['404', () => server.request('GET', '/nothing')],
    ['504', () => server.request('GET', SLOW_LIST)],
  ])('HSTS header on a %s', async (_code, call) => {
    expect((await call()).headers['strict-transport-security']).toBe(HSTS);
  });

  it('no HSTS header without --strict-transport-security-directives', async () => {
    expect((await denying.request('GET', '/livez')).headers['strict-transport-security']).toBeUndefined();
  });

  const corsHeaders = (origin: string) => ({
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'POST, GET, OPTIONS, PUT, DELETE, PATCH',
    'access-control-allow-headers':
      'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since',
    'access-control-expose-headers': 'Date',
    'access-control-allow-credentials': 'true',
  });

  it.each([ORIGIN, 'https://other.example.org'])(
    'CORS preflight from %s: 204 without credentials',
    async (origin) => {
      const r = await rawRequest(server, EVENTS, {
        method: 'OPTIONS',
        token: null,
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect([r.status, r.text]).toEqual([204, '']);
      expect(r.headers).toMatchObject(corsHeaders(origin));
    },
  );

  it('CORS headers on actual requests from an allowed origin, a 401 included', async () => {
    const ok = await rawRequest(server, EVENTS, { headers: { origin: ORIGIN } });
    expect(ok.status).toBe(200);
    expect(ok.headers).toMatchObject(corsHeaders(ORIGIN));
    const unauthorized = await rawRequest(server, EVENTS, { token: 'nope', headers: { origin: ORIGIN } });
    expect([unauthorized.status, unauthorized.text]).toEqual([401, UNAUTHORIZED]);
    expect(unauthorized.headers).toMatchObject(corsHeaders(ORIGIN));
  });

  it.each([
    ['a disallowed origin', 'main', 'https://evil.example.com'],
    ['an origin that only contains an allowed one', 'main', 'https://good.example.com.evil.net'],
    ['a server without --cors-allowed-origins', 'deny', ORIGIN],
  ])('no CORS headers for %s', async (_what, which, origin) => {
    const target = which === 'main' ? server : denying;
    const preflight = await rawRequest(target, EVENTS, {
      method: 'OPTIONS',
      token: null,
      headers: { origin },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.status).not.toBe(204);
    const get = await rawRequest(target, '/livez', { headers: { origin } });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each([
    '/apis/nope/v1/things',
    '/apis/nope',
    '/apis/events.k8s.io/v2/events',
    '/apis/events.k8s.io/v1/namespaces/default/things',
    '/apis/events.k8s.io/v1/namespaces/default/events/a/b/c',
    '/api/v9/foo',
  ])('%s is the 404 Status', async (path) => {
    const r = await server.request('GET', path);
    expect([r.status, r.text]).toEqual([404, NOT_FOUND]);
    expect(r.headers['content-type']).toBe('application/json');
  });

  it.each(['/nothing', '/', '/healthzz', '/livez2', '/metricsx'])(
    '%s is the plain-text 404',
    async (path) => {
      const r = await server.request('GET', path);
      expect([r.status, r.text]).toEqual([404, '404 page not found\n']);
      expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it.each([
    ['POST with Content-Length', 'POST', EVENTS],
    ['PUT with Content-Length', 'PUT', `${EVENTS}/big`],
    ['DELETE options', 'DELETE', `${EVENTS}/big`],
  ])('a body over 3 MiB is a 413 Status: %s', async (_what, method, path) => {
    const r = await server.request(method, path, { body: `{"x":"${'x'.repeat(LIMIT)}"}` });
    expect([r.status, r.text]).toEqual([413, TOO_LARGE]);
  });

  it('a chunked body that grows over 3 MiB is a 413 Status', async () => {
    const { req, response } = open(server, EVENTS, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    req.on('error', () => undefined); // The server may stop reading once it has answered.
    for (let i = 0; i < 4; i++) req.write('x'.repeat(1024 * 1024));
    req.end();
    const res = await response;
    let text = '';
    for await (const chunk of res) text += String(chunk);
    expect([res.statusCode, text]).toEqual([413, TOO_LARGE]);
  });

  it('a body just under the limit is read (and judged on its content, not its size)', async () => {
    const body = JSON.stringify({ ...eventBody('near-limit'), note: 'n'.repeat(LIMIT - 1024) });
    const r = await server.request('POST', EVENTS, { body });
    expect(r.status).not.toBe(413);
    expect(r.json).toMatchObject({ kind: 'Status' });
  });

  it.each(['http://[', 'http://x:99999/livez', '*', 'ftp://example.com/livez'])(
    'the unroutable request target %s gets 400 and does not take the server down',
    async (target) => {
      const reply = await rawTarget(server, target);
      expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(reply).toMatch(/\r\ncontent-type: text\/plain; charset=utf-8\r\n/i);
      expect(reply).toMatch(/\r\naudit-id: [0-9a-f-]{36}\r\n/i);
      expect(reply.endsWith('\r\n\r\n400 Bad Request')).toBe(true);
      expect((await server.request('GET', '/livez')).text).toBe('ok');
    },
  );

  it('an absolute-form target is served by its path', async () => {
    const reply = await rawTarget(server, 'https://elsewhere.example.com/livez');
    expect(reply).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(reply.endsWith('\r\n\r\nok')).toBe(true);
  });

  it('odd requests never produce a stack trace or a bare 500', async () => {
    const replies: RawResponse[] = await Promise.all([
      rawRequest(server, EVENTS, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      }),
      rawRequest(server, EVENTS, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '[]',
      }),
      rawRequest(server, EVENTS, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
      rawRequest(server, `${EVENTS}?labelSelector=a%20in%20(`),
      rawRequest(server, `${EVENTS}?continue=garbage`),
      rawRequest(server, `${EVENTS}?limit=abc`),
      rawRequest(server, `${EVENTS}/x`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json-patch+json' },
        body: '[{"op":"bogus"}]',
      }),
      rawRequest(server, '/livez/%E0%A4%A'),
      rawRequest(server, EVENTS, { method: 'PROPFIND' }),
    ]);
    for (const r of replies) {
      expect(r.text).not.toMatch(/\n\s+at /);
      expect(r.status).toBeLessThan(500);
    }
    expect(await rawTarget(server, '/readyz?exclude=%ZZ&verbose')).not.toMatch(/\n\s+at /);
    expect((await server.request('GET', '/readyz')).text).toBe('ok');
  });
});
