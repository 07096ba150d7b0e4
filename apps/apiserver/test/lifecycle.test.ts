import { TestApiServer } from '@keel/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENTS, eventBody, LIVEZ_CHECKS, READYZ_CHECKS, stores, verboseBody } from './support/fixtures.js';
import { keepAliveAgent, openWatch, rawRequest, slowBody, sleep } from './support/http.js';
import { connectionRefused, exited, signal, uniquePrefix, untilStatus } from './support/lifecycle.js';

// Termination as the spec's state table has it: Serving -> Delaying termination (readyz fails,
// everything else served) -> Graceful termination (in-flight work finishes, watches end, new
// connections refused or, with --shutdown-send-retry-after, answered 429) -> exit 0.

let running: TestApiServer[] = [];
afterEach(async () => {
  await Promise.all(running.map((s) => s.stop('SIGKILL')));
  running = [];
});

async function start(redisUrl: string | undefined, args: string[]): Promise<TestApiServer> {
  const server = await TestApiServer.start({ args, ...(redisUrl ? { redisUrl } : {}) });
  running.push(server);
  await server.ready();
  return server;
}

const SHUTDOWN_FAILED = { shutdown: '[-]shutdown failed: reason withheld' };

describe.each(stores)('lifecycle (%s store)', (store, redisUrl) => {
  it('SIGTERM with --shutdown-delay-duration: readyz fails at once, serving goes on, then a clean drain', async () => {
    const prefix = uniquePrefix();
    const server = await start(redisUrl, ['--shutdown-delay-duration=3s', `--store-prefix=${prefix}`]);
    expect((await server.request('POST', EVENTS, { body: eventBody('before') })).status).toBe(201);
    const watch = await openWatch(server, `${EVENTS}?watch=true&allowWatchBookmarks=false`);
    expect(watch.status).toBe(200);
    const agent = keepAliveAgent(server);
    const inFlight = slowBody(server, EVENTS, JSON.stringify(eventBody('in-flight')), { agent });

    signal(server);
    // Fails at once: well before the 3 s delay is over (the listener is still open below).
    const readyz = await untilStatus(server, '/readyz', 500, 2_000);
    expect({ status: readyz.status, text: readyz.text }).toEqual({
      status: 500,
      text: verboseBody('readyz', READYZ_CHECKS, SHUTDOWN_FAILED),
    });
    // The failure body is always verbose and keeps the warn line for unknown excludes.
    expect((await rawRequest(server, '/readyz?exclude=nope&exclude=log')).text).toBe(
      verboseBody('readyz', READYZ_CHECKS, { ...SHUTDOWN_FAILED, log: '[+]log excluded: ok' }, [
        'warn: some health checks cannot be excluded: no matches for "nope"',
      ]),
    );
    expect((await rawRequest(server, '/readyz?exclude=shutdown')).text).toBe('ok');
    expect((await rawRequest(server, '/readyz/shutdown')).text).toBe(
      'internal server error: process is shutting down\n',
    );
    expect((await rawRequest(server, '/livez?verbose')).text).toBe(verboseBody('livez', LIVEZ_CHECKS));
    expect((await rawRequest(server, '/healthz')).text).toBe('ok');
    // Still serving normally during the delay, new connections included.
    expect((await server.request('POST', EVENTS, { body: eventBody('during-delay') })).status).toBe(201);
    expect((await server.request('GET', `${EVENTS}/before`)).status).toBe(200);
    await watch.waitForEvents(2);

    // Graceful termination: the listener closes, the watch ends cleanly, the in-flight write finishes.
    expect(await connectionRefused(server)).toBe('ECONNREFUSED');
    await expect(watch.ended).resolves.toBeUndefined();
    // Without a resourceVersion the watch starts with the current state ("before").
    expect(watch.events.map((e) => [e.type, (e.object['metadata'] as { name: string }).name])).toEqual([
      ['ADDED', 'before'],
      ['ADDED', 'during-delay'],
    ]);
    const written = await inFlight.finish();
    expect(written.status).toBe(201);
    // Its keep-alive connection is not reused: the server is going away.
    expect(written.headers['connection']).toBe('close');
    agent.destroy();

    const result = await exited(server);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Shut down cleanly');

    if (store === 'redis') {
      // Nothing acknowledged is lost: a second server on the same prefix reads all of it.
      const second = await start(redisUrl, [`--store-prefix=${prefix}`]);
      for (const name of ['before', 'during-delay', 'in-flight']) {
        expect((await second.request('GET', `${EVENTS}/${name}`)).status, name).toBe(200);
      }
    }
  });

  it('--shutdown-send-retry-after: new requests get 429 with Retry-After and Connection: close while draining', async () => {
    const prefix = uniquePrefix();
    const server = await start(redisUrl, ['--shutdown-send-retry-after', `--store-prefix=${prefix}`]);
    const agent = keepAliveAgent(server);
    try {
      const first = await rawRequest(server, `${EVENTS}`, { agent });
      expect([first.status, first.headers['connection']]).toEqual([200, 'keep-alive']);
      const inFlight = slowBody(server, EVENTS, JSON.stringify(eventBody('in-flight')));
      // Admitted before the signal: its headers are in (nothing to observe but time).
      await sleep(300);

      signal(server);
      const refused = await untilStatus(server, EVENTS, 429);
      expect(refused.text).toBe('The apiserver is shutting down, please try again later.\n');
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
      // On a connection that was kept alive, the 429 tells the client to go elsewhere.
      const onKeptAlive = await rawRequest(server, `${EVENTS}/x`, { agent });
      expect([onKeptAlive.status, onKeptAlive.headers['connection']]).toEqual([429, 'close']);
      expect(onKeptAlive.headers['retry-after']).toBe('5');
      // Probes are exempt: load balancers keep seeing the truth.
      expect((await rawRequest(server, '/livez')).status).toBe(200);
      expect((await rawRequest(server, '/readyz')).text).toBe(
        verboseBody('readyz', READYZ_CHECKS, SHUTDOWN_FAILED),
      );

      const written = await inFlight.finish();
      expect(written.status).toBe(201);
      expect((await exited(server)).code).toBe(0);
      await expect(rawRequest(server, '/livez')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      agent.destroy();
    }
    if (store === 'redis') {
      const second = await start(redisUrl, [`--store-prefix=${prefix}`]);
      expect((await second.request('GET', `${EVENTS}/in-flight`)).status).toBe(200);
    }
  });

  it('a second signal exits 1 at once, even during the shutdown delay', async () => {
    const server = await start(redisUrl, ['--shutdown-delay-duration=1m']);
    signal(server, 'SIGTERM');
    await untilStatus(server, '/readyz', 500);
    signal(server, 'SIGINT');
    const result = await exited(server, 5_000);
    expect(result.code).toBe(1);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s without a delay exits 0 and closes the listener',
    async (sig) => {
      const server = await start(redisUrl, []);
      expect((await server.request('POST', EVENTS, { body: eventBody('x') })).status).toBe(201);
      signal(server, sig);
      const result = await exited(server);
      expect(result.code).toBe(0);
      expect(result.stderr).not.toMatch(/^E\d{4}/m);
      await expect(rawRequest(server, '/livez')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    },
  );

  it('a watch open at shutdown ends cleanly, without an ERROR event', async () => {
    const server = await start(redisUrl, []);
    const watch = await openWatch(server, `${EVENTS}?watch=1`);
    expect((await server.request('POST', EVENTS, { body: eventBody('seen') })).status).toBe(201);
    await watch.waitForEvents(1);
    signal(server);
    await expect(watch.ended).resolves.toBeUndefined();
    expect(watch.events.map((e) => e.type)).toEqual(['ADDED']);
    expect((await exited(server)).code).toBe(0);
  });
});
