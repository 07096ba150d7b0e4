import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedCheck, pingCheck, timeoutCheck, type HealthChecker } from './checker.js';
import { combineHandlers, healthHandler, toMiddleware, type HealthHandlerOptions } from './handler.js';
import { NOT_HANDLED, request, serve, type Served } from './testing/serve.js';

const ok = (name: string) => namedCheck(name, () => undefined);
const failing = (name: string, message: string) =>
  namedCheck(name, () => {
    throw new Error(message);
  });

async function withServer(
  handler: Parameters<typeof serve>[0],
  fn: (base: string) => Promise<void>,
): Promise<void> {
  const served = await serve(handler);
  try {
    await fn(served.base);
  } finally {
    await served.close();
  }
}

describe('healthHandler, the §9 table', () => {
  let server: Served;
  const failures: [string, string, string][] = [];
  let storeCalls = 0;

  beforeAll(async () => {
    const onFailure: HealthHandlerOptions['onFailure'] = (path, name, err) =>
      failures.push([path, name, (err as Error).message]);
    const store: HealthChecker = {
      name: 'store',
      check: async () => {
        storeCalls++;
        throw new Error('dial tcp 127.0.0.1:6379: connection refused');
      },
    };
    server = await serve(
      combineHandlers(
        healthHandler('/livez', [pingCheck, ok('log'), ok('poststarthook/start-informers')], { onFailure }),
        healthHandler(
          '/readyz',
          [
            pingCheck,
            ok('log'),
            store,
            ok('poststarthook/start-apiserver-admission-initializer'),
            ok('shutdown'),
          ],
          {
            onFailure,
          },
        ),
      ),
    );
  });
  afterAll(() => server.close());

  const livezLines = '[+]ping ok\n[+]log ok\n[+]poststarthook/start-informers ok\n';
  const readyzFailed = (warn = '') =>
    '[+]ping ok\n[+]log ok\n[-]store failed: reason withheld\n[+]poststarthook/start-apiserver-admission-initializer ok\n[+]shutdown ok\n' +
    warn +
    'readyz check failed\n';

  it.each([
    ['all pass, no verbose', 'GET', '/livez', 200, 'ok'],
    ['all pass, verbose', 'GET', '/livez?verbose', 200, `${livezLines}livez check passed\n`],
    [
      'verbose with any value, even false',
      'GET',
      '/livez?verbose=false',
      200,
      `${livezLines}livez check passed\n`,
    ],
    ['any method', 'POST', '/livez?verbose=1', 200, `${livezLines}livez check passed\n`],
    ['any method (DELETE)', 'DELETE', '/livez', 200, 'ok'],
    ['a check fails: always verbose', 'GET', '/readyz', 500, readyzFailed()],
    ['a check fails, verbose', 'PUT', '/readyz?verbose', 500, readyzFailed()],
    ['per-check path passes', 'GET', '/livez/ping', 200, 'ok'],
    ['per-check path with "/" in the name', 'GET', '/livez/poststarthook/start-informers', 200, 'ok'],
    [
      'per-check path fails, reason shown',
      'GET',
      '/readyz/store',
      500,
      'internal server error: dial tcp 127.0.0.1:6379: connection refused\n',
    ],
    ['unknown check name', 'GET', '/livez/nope', 404, '404 page not found\n'],
    ['empty check name', 'GET', '/livez/', 404, '404 page not found\n'],
    ['prefix of a name with "/"', 'GET', '/livez/poststarthook', 404, '404 page not found\n'],
    ['trailing slash after a name', 'GET', '/livez/ping/', 404, '404 page not found\n'],
    ['a check of another endpoint', 'GET', '/livez/store', 404, '404 page not found\n'],
    // The path is matched decoded, as Go's r.URL.Path: escapes can name a root or a check.
    ['an escaped root', 'GET', '/%6civez?verbose', 200, `${livezLines}livez check passed\n`],
    ['an escaped "/" before a check', 'GET', '/livez%2Fping', 200, 'ok'],
    ['a malformed escape under a root', 'GET', '/livez/%zz', 404, '404 page not found\n'],
  ])('%s: %s %s', async (_case, method, target, status, body) => {
    const reply = await request(server.base, target, { method });
    expect(reply).toEqual({ status, body, contentType: 'text/plain; charset=utf-8', nosniff: 'nosniff' });
  });

  it.each([
    ['exclusion of the failing check turns readyz green', '/readyz?exclude=store', 200, 'ok'],
    [
      'excluded line in verbose output',
      '/readyz?verbose&exclude=store',
      200,
      '[+]ping ok\n[+]log ok\n[+]store excluded: ok\n[+]poststarthook/start-apiserver-admission-initializer ok\n[+]shutdown ok\nreadyz check passed\n',
    ],
    [
      'exclude first, verbose second',
      '/readyz?exclude=store&exclude=log&verbose',
      200,
      '[+]ping ok\n[+]log excluded: ok\n[+]store excluded: ok\n[+]poststarthook/start-apiserver-admission-initializer ok\n[+]shutdown ok\nreadyz check passed\n',
    ],
    [
      'unknown exclude, failure body (the §9 example)',
      '/readyz?verbose&exclude=foo',
      500,
      readyzFailed('warn: some health checks cannot be excluded: no matches for "foo"\n'),
    ],
    [
      'unknown exclude without verbose still in failure body',
      '/readyz?exclude=foo',
      500,
      readyzFailed('warn: some health checks cannot be excluded: no matches for "foo"\n'),
    ],
    ['unknown exclude, no verbose, passing: plain ok', '/livez?exclude=foo', 200, 'ok'],
    [
      'unknown excludes sorted, after the check lines',
      '/livez?verbose&exclude=zeta&exclude=ping&exclude=alpha',
      200,
      '[+]ping excluded: ok\n[+]log ok\n[+]poststarthook/start-informers ok\nwarn: some health checks cannot be excluded: no matches for "alpha","zeta"\nlivez check passed\n',
    ],
    [
      'a comma does not split: "ping,log" is one unknown name',
      '/livez?verbose&exclude=ping,log',
      200,
      `${livezLines}warn: some health checks cannot be excluded: no matches for "ping,log"\nlivez check passed\n`,
    ],
    [
      'a repeated unknown name is listed once',
      '/livez?verbose&exclude=foo&exclude=foo',
      200,
      `${livezLines}warn: some health checks cannot be excluded: no matches for "foo"\nlivez check passed\n`,
    ],
    [
      'names are Go-quoted',
      '/livez?verbose&exclude=a%22b&exclude=%09',
      200,
      `${livezLines}warn: some health checks cannot be excluded: no matches for "\\t","a\\"b"\nlivez check passed\n`,
    ],
    [
      'exclude of a name with "/"',
      '/livez?verbose&exclude=poststarthook/start-informers',
      200,
      '[+]ping ok\n[+]log ok\n[+]poststarthook/start-informers excluded: ok\nlivez check passed\n',
    ],
    [
      'exclude is ignored on per-check paths',
      '/readyz/store?exclude=store',
      500,
      'internal server error: dial tcp 127.0.0.1:6379: connection refused\n',
    ],
    ['verbose is ignored on per-check paths', '/livez/ping?verbose', 200, 'ok'],
  ])('%s', async (_case, target, status, body) => {
    expect(await request(server.base, target)).toMatchObject({ status, body });
  });

  it('does not run excluded checks', async () => {
    const before = storeCalls;
    await request(server.base, '/readyz?exclude=store');
    expect(storeCalls).toBe(before);
    await request(server.base, '/readyz');
    expect(storeCalls).toBe(before + 1);
  });

  it('sends the real error to onFailure with the served path', async () => {
    failures.length = 0;
    await request(server.base, '/readyz');
    await request(server.base, '/readyz/store');
    expect(failures).toEqual([
      ['/readyz', 'store', 'dial tcp 127.0.0.1:6379: connection refused'],
      ['/readyz/store', 'store', 'dial tcp 127.0.0.1:6379: connection refused'],
    ]);
  });

  it.each(['/', '/livezz', '/healthz', '/apis/events', '/ready', '/%6civezz', '/api%2Flivez', '/%zz'])(
    'leaves %s to the next handler',
    async (target) => {
      expect((await request(server.base, target)).status).toBe(NOT_HANDLED);
    },
  );

  it('answers HEAD with headers only', async () => {
    expect(await request(server.base, '/readyz', { method: 'HEAD' })).toMatchObject({
      status: 500,
      body: '',
    });
  });

  it('matches the path as sent: no ".." resolution', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const { port } = new URL(server.base);
      const req = httpRequest({ host: '127.0.0.1', port, path: '/livez/../readyz' }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(404);
  });
});

describe('healthHandler, running checks', () => {
  it('runs checks concurrently and reports them in registration order', async () => {
    let releaseFirst!: () => void;
    const secondStarted = new Promise<void>((resolve) => (releaseFirst = resolve));
    const first = timeoutCheck(
      namedCheck('first', () => secondStarted),
      2_000,
    );
    const second = namedCheck('second', () => releaseFirst());
    await withServer(healthHandler('/readyz', [first, second]), async (base) => {
      expect(await request(base, '/readyz?verbose')).toMatchObject({
        status: 200,
        body: '[+]first ok\n[+]second ok\nreadyz check passed\n',
      });
    });
  });

  it('counts a synchronous throw and a non-Error rejection as failures', async () => {
    const syncThrow: HealthChecker = {
      name: 'sync',
      check: () => {
        throw new Error('thrown before any await');
      },
    };
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the case under test is a non-Error rejection
    const stringReject: HealthChecker = { name: 'string', check: () => Promise.reject('plain text') };
    await withServer(healthHandler('/healthz', [syncThrow, stringReject]), async (base) => {
      expect(await request(base, '/healthz')).toMatchObject({
        status: 500,
        body: '[-]sync failed: reason withheld\n[-]string failed: reason withheld\nhealthz check failed\n',
      });
      expect(await request(base, '/healthz/sync')).toMatchObject({
        status: 500,
        body: 'internal server error: thrown before any await\n',
      });
      expect(await request(base, '/healthz/string')).toMatchObject({
        status: 500,
        body: 'internal server error: plain text\n',
      });
    });
  });

  it('serves ping when given no checks', async () => {
    await withServer(healthHandler('/livez', []), async (base) => {
      expect((await request(base, '/livez?verbose')).body).toBe('[+]ping ok\nlivez check passed\n');
      expect((await request(base, '/livez/ping')).body).toBe('ok');
    });
  });

  it('aborts the check signal when the client disconnects', async () => {
    let started!: () => void;
    const checkStarted = new Promise<void>((resolve) => (started = resolve));
    let abortedWith!: (reason: unknown) => void;
    const abortReason = new Promise<unknown>((resolve) => (abortedWith = resolve));
    const hanging = namedCheck('hanging', (signal) => {
      signal.addEventListener('abort', () => abortedWith(signal.reason));
      started();
      return new Promise<void>(() => undefined);
    });
    await withServer(healthHandler('/readyz', [hanging]), async (base) => {
      const client = new AbortController();
      const pending = fetch(`${base}/readyz`, { signal: client.signal }).catch(() => 'client gave up');
      await checkStarted;
      client.abort();
      expect(await pending).toBe('client gave up');
      expect(await abortReason).toEqual(new Error('client disconnected'));
    });
  });

  it('calls onFirstHealthy once, on the first success only', async () => {
    let healthy = false;
    let calls = 0;
    const gate = namedCheck('gate', () => {
      if (!healthy) throw new Error('not yet');
    });
    await withServer(healthHandler('/readyz', [gate], { onFirstHealthy: () => calls++ }), async (base) => {
      await request(base, '/readyz');
      expect(calls).toBe(0);
      healthy = true;
      await request(base, '/readyz');
      await request(base, '/readyz');
      expect(calls).toBe(1);
    });
  });

  it('answers 500 when a callback throws', async () => {
    const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
    const handler = healthHandler('/readyz', [failing('x', 'boom')], {
      onFailure: () => {
        throw new Error('logger broke');
      },
    });
    await withServer(handler, async (base) => {
      expect(await request(base, '/readyz')).toMatchObject({ status: 500, body: 'internal server error\n' });
    });
    expect((await warned).message).toBe('logger broke');
  });

  it('works as Connect/Express-style middleware', async () => {
    const middleware = toMiddleware(healthHandler('/livez', [pingCheck]));
    const handler: Parameters<typeof serve>[0] = (req, res) => {
      middleware(req, res, () => {
        res.statusCode = 404;
        res.end('from next');
      });
      return true;
    };
    await withServer(handler, async (base) => {
      expect(await request(base, '/livez')).toMatchObject({ status: 200, body: 'ok' });
      expect(await request(base, '/elsewhere')).toMatchObject({ status: 404, body: 'from next' });
    });
  });
});

describe('healthHandler construction', () => {
  it.each([
    ['duplicate names', '/livez', [pingCheck, pingCheck], 'duplicate health check "ping" on /livez'],
    [
      'empty name',
      '/livez',
      [{ name: '', check: () => Promise.resolve() }],
      'a health check needs a non-empty name',
    ],
    ['root without slash', 'livez', [], 'health path must look like "/livez", got "livez"'],
    ['root with trailing slash', '/livez/', [], 'health path must look like "/livez", got "/livez/"'],
    ['bare slash', '/', [], 'health path must look like "/livez", got "/"'],
  ])('refuses %s', (_case, root, checks, message) => {
    expect(() => healthHandler(root, checks)).toThrow(message);
  });
});
