import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWatch, timed } from './support/http.js';

// --max-connection-bytes-per-sec throttles what long-running responses (watches) send on one
// connection. The test asserts the throttle's guarantee, a lower bound: a slower machine only
// makes the watch slower, never faster.

const CMS = '/api/v1/namespaces/default/configmaps';
const RATE = 2048;
const EVENTS = 8;
// Each event is a little over 1.5 KiB on the wire; 8 of them are over 12 KiB, six seconds' worth.
const payload = 'x'.repeat(1500);

async function seed(server: TestApiServer, label: string): Promise<void> {
  for (let i = 0; i < EVENTS; i++) {
    const r = await server.request('POST', CMS, {
      body: { metadata: { name: `${label}-${i}`, labels: { set: label } }, data: { payload } },
    });
    expect(r.status).toBe(201);
  }
}

describe('--max-connection-bytes-per-sec', () => {
  let throttled: TestApiServer;
  let free: TestApiServer;
  beforeAll(async () => {
    [throttled, free] = await Promise.all([
      TestApiServer.start({ args: [`--max-connection-bytes-per-sec=${RATE}`] }),
      TestApiServer.start(),
    ]);
    await Promise.all([throttled.ready(), free.ready()]);
    await Promise.all([seed(throttled, 'slow'), seed(free, 'fast')]);
  });
  afterAll(async () => {
    await Promise.all([throttled?.stop(), free?.stop()]);
  });

  it('sends a watch no faster than the limit, every event whole and in order', async () => {
    const { value: w, ms } = await timed(async () => {
      const watch = await openWatch(
        throttled,
        `${CMS}?watch=true&resourceVersion=0&labelSelector=set%3Dslow`,
      );
      await watch.waitForEvents(EVENTS, 60_000);
      return watch;
    });
    w.close();
    const bytes = w.events.reduce((n, e) => n + JSON.stringify(e).length + 1, 0);
    expect(bytes).toBeGreaterThan(6 * RATE);
    // One second's worth may go at once; the rest waits for the budget to refill.
    expect(ms).toBeGreaterThanOrEqual(((bytes - RATE) / RATE) * 1000 * 0.9);
    expect(w.events.map((e) => (e.object['metadata'] as { name: string }).name)).toEqual(
      Array.from({ length: EVENTS }, (_, i) => `slow-${i}`),
    );
  });

  it('does not throttle requests that are not long-running', async () => {
    const list = await throttled.request('GET', `${CMS}?labelSelector=set%3Dslow`);
    expect(list.status).toBe(200);
    expect((list.json as { items: unknown[] }).items).toHaveLength(EVENTS);
  });

  it('leaves watches alone at 0, the default', async () => {
    const w = await openWatch(free, `${CMS}?watch=true&resourceVersion=0&labelSelector=set%3Dfast`);
    await w.waitForEvents(EVENTS, 10_000);
    w.close();
    expect(w.events).toHaveLength(EVENTS);
  });
});
