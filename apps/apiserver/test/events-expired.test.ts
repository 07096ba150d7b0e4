import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  createEvents,
  evPath,
  eventually,
  failure,
  meta,
  names,
  newEvent,
  startServer,
  STORES,
  uniqueNs,
  WatchStream,
} from './support/events.js';

const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Compaction every second: history older than one to two seconds of writes is gone. */
describe.each(STORES)('Event history after compaction (%s store)', (store) => {
  let server: TestApiServer;
  const scratch = uniqueNs('scratch');
  let writes = 0;
  beforeAll(async () => {
    server = await startServer(store, ['--store-compaction-interval=1s']);
  });
  afterAll(async () => {
    await server.stop();
  });

  /** Keeps writing until `rv` has been compacted away (an Exact list at it is 410). */
  async function compactPast(ns: string, rv: string): Promise<void> {
    await eventually(async () => {
      await createEvents(server, scratch, [newEvent(scratch, `w-${writes++}`)]);
      const res = await server.request(
        'GET',
        evPath(ns, undefined, `resourceVersion=${rv}&resourceVersionMatch=Exact`),
      );
      return res.status === 410 ? true : undefined;
    });
  }

  it('an Exact list at a compacted resourceVersion is 410 Expired', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'a')]);
    const rv = String(meta(body(await server.request('GET', evPath(ns))))['resourceVersion']);
    await compactPast(ns, rv);
    const res = await server.request(
      'GET',
      evPath(ns, undefined, `resourceVersion=${rv}&resourceVersionMatch=Exact`),
    );
    expect(res.json).toEqual(
      failure(410, 'Expired', 'The resourceVersion for the provided list is too old.'),
    );
    // A paged list at that resourceVersion is an Exact read too.
    const paged = await server.request('GET', evPath(ns, undefined, `resourceVersion=${rv}&limit=1`));
    expect(paged.status).toBe(410);
  });

  it('an expired continue token is 410 with a fresh token that continues at the latest state', async () => {
    const ns = uniqueNs();
    await createEvents(
      server,
      ns,
      ['a', 'b', 'c'].map((n) => newEvent(ns, n)),
    );
    const first = body(await server.request('GET', evPath(ns, undefined, 'limit=1')));
    const { resourceVersion: rv, continue: token } = meta(first) as {
      resourceVersion: string;
      continue: string;
    };
    expect(names(first)).toEqual(['a']);
    await createEvents(server, ns, [newEvent(ns, 'd')]);
    await compactPast(ns, rv);
    const res = await server.request(
      'GET',
      evPath(ns, undefined, `limit=1&continue=${encodeURIComponent(token)}`),
    );
    expect(res.status).toBe(410);
    const status = body(res);
    expect(status).toEqual({
      ...failure(410, 'Expired', CONTINUE_EXPIRED),
      metadata: { continue: expect.any(String) as unknown },
    });
    const fresh = String(meta(status)['continue']);
    const rest: string[] = [];
    let next: string | undefined = fresh;
    while (next) {
      const page = body(
        await server.request('GET', evPath(ns, undefined, `limit=2&continue=${encodeURIComponent(next)}`)),
      );
      rest.push(...names(page));
      next = meta(page)['continue'] as string | undefined;
    }
    expect(rest).toEqual(['b', 'c', 'd']);
  });

  it('a watch from a compacted resourceVersion gets one ERROR event (410 Expired), then the stream ends', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'a')]);
    const rv = String(meta(body(await server.request('GET', evPath(ns))))['resourceVersion']);
    await compactPast(ns, rv);
    const w = await WatchStream.open(
      server,
      evPath(ns, undefined, `watch=true&resourceVersion=${rv}&timeoutSeconds=60`),
    );
    try {
      expect(w.status).toBe(200);
      const events = await w.end();
      expect(events).toEqual([
        {
          type: 'ERROR',
          object: {
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            message: expect.stringMatching(
              new RegExp(`^too old resource version: ${rv} \\(\\d+\\)$`),
            ) as unknown,
            reason: 'Expired',
            code: 410,
          },
        },
      ]);
      expect(w.badLines).toEqual([]);
    } finally {
      w.close();
    }
  });
});
