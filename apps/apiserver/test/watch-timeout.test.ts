import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS } from './support/fixtures.js';
import { openWatch, timed } from './support/http.js';

// --min-request-timeout bounds a watch that names no timeoutSeconds: it ends cleanly after a
// random time between the minimum and twice it, so that clients reconnect and spread out.
describe('--min-request-timeout', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({ args: ['--min-request-timeout=1'] });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('ends a watch without timeoutSeconds cleanly after between one and two minimums', async () => {
    const explicit = await openWatch(server, `${EVENTS}?watch=true&timeoutSeconds=60`);
    // Timed from before the request, so the server's timer cannot have started earlier.
    const { value: bounded, ms } = await timed(async () => {
      const w = await openWatch(server, `${EVENTS}?watch=true`);
      // Resolves only on a clean end of the chunked stream; a reset would reject.
      await w.ended;
      return w;
    });
    expect([bounded.status, explicit.status]).toEqual([200, 200]);
    expect(ms).toBeGreaterThanOrEqual(1000);
    // The watch that asked for 60 s is still open: the minimum is not a cap on what clients ask.
    let explicitEnded = false;
    void explicit.ended.then(
      () => (explicitEnded = true),
      () => undefined,
    );
    await new Promise((r) => setImmediate(r));
    expect(explicitEnded).toBe(false);
    explicit.close();
  });
});
