import { TestApiServer, USER_TOKEN, type ApiResponse } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, eventBody, stores } from './support/fixtures.js';
import { eventually, openWatch, sleep, slowBody, type WatchStream } from './support/http.js';

// --max-requests-inflight=1 and --max-mutating-requests-inflight=1, saturated by requests that
// stay in flight: a list waiting for a resourceVersion the store never reaches (read-only, about
// 3 s) and a create whose body is still being sent (mutating). Over a cap: the real server's
// plain-text 429; watches and system:masters are exempt.

/** A list that waits for a resourceVersion the store never reaches, then answers a 504 of its own. */
const SLOW_LIST = `${EVENTS}?resourceVersion=999999999&resourceVersionMatch=NotOlderThan`;
const alice = { token: USER_TOKEN };

function expectTooMany(r: ApiResponse): void {
  expect([r.status, r.text]).toEqual([429, 'Too many requests, please try again later.\n']);
  expect(r.headers['retry-after']).toBe('1');
  expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['audit-id']).toMatch(/^[0-9a-f-]{36}$/);
}

describe.each(stores)('in-flight limits (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      // The in-flight limits are the path without priority and fairness.
      args: [
        '--enable-priority-and-fairness=false',
        '--max-requests-inflight=1',
        '--max-mutating-requests-inflight=1',
      ],
      ...(redisUrl ? { redisUrl } : {}),
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('read-only cap: a second read is 429 while one is in flight; writes, watches and masters go on', async () => {
    const slow = server.request('GET', SLOW_LIST, alice);
    // A head start, so the slow list (not a probe of ours) takes the only slot; then poll for it.
    await sleep(200);
    expectTooMany(
      await eventually(
        () => server.request('GET', EVENTS, alice),
        (r) => r.status === 429,
      ),
    );
    // Only what is exempt gets through while the slot is held: masters, watches, the other pool.
    expect((await server.request('GET', EVENTS)).status).toBe(200);
    const watch = await openWatch(server, `${EVENTS}?watch=true`, alice);
    watch.close();
    expect(watch.status).toBe(200);
    expect(
      (await server.request('POST', EVENTS, { ...alice, body: eventBody('while-reads-full') })).status,
    ).toBe(201);
    expectTooMany(await server.request('GET', '/readyz', { token: null }));

    expect((await slow).status).toBe(504);
    expect((await server.request('GET', EVENTS, alice)).status).toBe(200);
  });

  it('mutating cap: a second write is 429 while one is in flight; reads and masters go on', async () => {
    const inFlight = slowBody(server, EVENTS, JSON.stringify(eventBody('slow-write')), alice);
    await sleep(200);
    const second = await eventually(
      () => server.request('POST', EVENTS, { ...alice, body: eventBody('second') }),
      (r) => r.status === 429,
    );
    expectTooMany(second);
    expectTooMany(await server.request('DELETE', `${EVENTS}/while-reads-full`, alice));

    expect((await server.request('GET', EVENTS, alice)).status).toBe(200);
    expect((await server.request('POST', EVENTS, { body: eventBody('by-admin') })).status).toBe(201);

    expect((await inFlight.finish()).status).toBe(201);
    expect((await server.request('POST', EVENTS, { ...alice, body: eventBody('after') })).status).toBe(201);
    expect((await server.request('GET', `${EVENTS}/second`, alice)).status).toBe(404);
  });

  it('watches hold no slot: several open watches leave the read-only cap free', async () => {
    const watches: WatchStream[] = [];
    for (let i = 0; i < 3; i++) watches.push(await openWatch(server, `${EVENTS}?watch=true`, alice));
    try {
      expect(watches.map((w) => w.status)).toEqual([200, 200, 200]);
      expect((await server.request('GET', EVENTS, alice)).status).toBe(200);
    } finally {
      for (const w of watches) w.close();
    }
  });

  it('a refused request takes no slot: the cap frees as soon as the in-flight one ends', async () => {
    const slow = server.request('GET', SLOW_LIST, alice);
    await sleep(200);
    await eventually(
      () => server.request('GET', EVENTS, alice),
      (r) => r.status === 429,
    );
    for (let i = 0; i < 5; i++) expect((await server.request('GET', EVENTS, alice)).status).toBe(429);
    await slow;
    expect((await server.request('GET', EVENTS, alice)).status).toBe(200);
  });
});
