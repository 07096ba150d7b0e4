import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  corePath,
  createEvents,
  evPath,
  eventually,
  meta,
  newCoreEvent,
  newEvent,
  notFoundEvents,
  startServer,
  STORES,
  uniqueNs,
  WatchStream,
} from './support/events.js';

/** --event-ttl=2s: every event expires two seconds after its last write. */
describe.each(STORES)('Event expiry (%s store)', (store) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startServer(store, ['--event-ttl=2s']);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('an expired event is gone (404) and watchers of both versions see DELETED', async () => {
    const ns = uniqueNs();
    const evWatch = await WatchStream.open(server, evPath(ns, undefined, 'watch=true&timeoutSeconds=60'));
    const coreWatch = await WatchStream.open(server, corePath(ns, undefined, 'watch=true&timeoutSeconds=60'));
    try {
      const [created] = await createEvents(server, ns, [newEvent(ns, 'short-lived')]);
      expect((await evWatch.next()).type).toBe('ADDED');
      expect((await coreWatch.next()).type).toBe('ADDED');

      const deleted = await evWatch.next();
      expect(deleted.type).toBe('DELETED');
      expect(deleted.object).toMatchObject({
        kind: 'Event',
        apiVersion: 'events.k8s.io/v1',
        metadata: { name: 'short-lived', uid: meta(created!)['uid'] },
        note: 'pod started',
      });
      expect(BigInt(String(meta(deleted.object)['resourceVersion']))).toBeGreaterThan(
        BigInt(String(meta(created!)['resourceVersion'])),
      );
      const coreDeleted = await coreWatch.next();
      expect(coreDeleted.type).toBe('DELETED');
      expect(coreDeleted.object).toMatchObject({ apiVersion: 'v1', message: 'pod started' });

      const got = await server.request('GET', evPath(ns, 'short-lived'));
      expect(got.status).toBe(404);
      expect(got.json).toEqual(notFoundEvents('short-lived'));
      expect(body(await server.request('GET', corePath(ns)))['items']).toEqual([]);
    } finally {
      evWatch.close();
      coreWatch.close();
    }
  });

  it('events written through core/v1 and by updates expire too', async () => {
    const ns = uniqueNs();
    expect((await server.request('POST', corePath(ns), { body: newCoreEvent(ns, 'legacy') })).status).toBe(
      201,
    );
    const [ev] = await createEvents(server, ns, [newEvent(ns, 'updated')]);
    const put = await server.request('PUT', evPath(ns, 'updated'), {
      body: { ...ev, series: { count: 2, lastObservedTime: '2024-05-01T10:05:00.000000Z' } },
    });
    expect(put.status).toBe(200);
    await eventually(async () => {
      const list = body(await server.request('GET', evPath(ns)));
      return (list['items'] as unknown[]).length === 0 ? true : undefined;
    });
    expect((await server.request('GET', corePath(ns, 'legacy'))).status).toBe(404);
    expect((await server.request('GET', evPath(ns, 'updated'))).status).toBe(404);
  });
});
