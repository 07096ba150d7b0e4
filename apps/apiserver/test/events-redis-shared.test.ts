import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import {
  body,
  corePath,
  createEvents,
  evPath,
  meta,
  names,
  newEvent,
  uniqueNs,
  WatchStream,
} from './support/events.js';

const rvOf = (obj: Record<string, unknown>): bigint => BigInt(String(meta(obj)['resourceVersion']));

/** Two API servers on one Redis with one --store-prefix: one cluster state, one resourceVersion sequence. */
describe('two API servers sharing a Redis store', () => {
  let a: TestApiServer;
  let b: TestApiServer;
  beforeAll(async () => {
    const args = [
      `--store-servers=${inject('redisUrl')}`,
      `--store-prefix=/shared-${randomBytes(6).toString('hex')}`,
    ];
    [a, b] = await Promise.all([TestApiServer.start({ args }), TestApiServer.start({ args })]);
    await Promise.all([a.ready(), b.ready()]);
  });
  afterAll(async () => {
    await Promise.all([a.stop(), b.stop()]);
  });

  it('an event written through one server is read through the other, in both versions', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(a, ns, [newEvent(ns, 'shared')]);
    const got = await b.request('GET', evPath(ns, 'shared'));
    expect(got.status).toBe(200);
    expect(got.json).toEqual(created);
    expect(body(await b.request('GET', corePath(ns, 'shared')))).toMatchObject({ message: 'pod started' });
  });

  it('resourceVersions form one increasing sequence across the servers', async () => {
    const ns = uniqueNs();
    const rvs: bigint[] = [];
    for (const server of [a, b, a, b]) {
      const [ev] = await createEvents(server, ns, [newEvent(ns, `ev-${rvs.length}`)]);
      rvs.push(rvOf(ev!));
    }
    expect([...rvs].sort((x, y) => (x < y ? -1 : 1))).toEqual(rvs);
    expect(new Set(rvs).size).toBe(4);
    const listA = body(await a.request('GET', evPath(ns)));
    const listB = body(await b.request('GET', evPath(ns)));
    expect(names(listA)).toEqual(['ev-0', 'ev-1', 'ev-2', 'ev-3']);
    expect(listB['items']).toEqual(listA['items']);
  });

  it('an update through one server conflicts with a stale resourceVersion through the other', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(a, ns, [newEvent(ns, 'contended')]);
    const series = { count: 2, lastObservedTime: '2024-05-01T10:05:00.000000Z' };
    expect((await b.request('PUT', evPath(ns, 'contended'), { body: { ...created, series } })).status).toBe(
      200,
    );
    const stale = await a.request('PUT', evPath(ns, 'contended'), {
      body: { ...created, series: { ...series, count: 3 } },
    });
    expect(stale.status).toBe(409);
    expect(body(stale)['reason']).toBe('Conflict');
  });

  it('a watch on one server sees ADDED, MODIFIED and DELETED from the other', async () => {
    const ns = uniqueNs();
    const w = await WatchStream.open(b, evPath(ns, undefined, 'watch=true&timeoutSeconds=60'));
    try {
      const [created] = await createEvents(a, ns, [newEvent(ns, 'w')]);
      expect(await w.next()).toEqual({ type: 'ADDED', object: created });
      const patched = await a.request('PATCH', evPath(ns, 'w'), {
        body: { metadata: { labels: { seen: 'yes' } } },
        contentType: 'application/merge-patch+json',
      });
      expect(await w.next()).toEqual({ type: 'MODIFIED', object: body(patched) });
      expect((await a.request('DELETE', evPath(ns, 'w'))).status).toBe(200);
      const deleted = await w.next();
      expect(deleted.type).toBe('DELETED');
      expect(rvOf(deleted.object)).toBeGreaterThan(rvOf(body(patched)));
    } finally {
      w.close();
    }
  });

  it("a watch from one server's list resourceVersion on the other gets exactly the later changes", async () => {
    const ns = uniqueNs();
    await createEvents(a, ns, [newEvent(ns, 'before')]);
    const rv = String(meta(body(await a.request('GET', evPath(ns))))['resourceVersion']);
    await createEvents(a, ns, [newEvent(ns, 'after')]);
    const w = await WatchStream.open(
      b,
      evPath(ns, undefined, `watch=true&resourceVersion=${rv}&timeoutSeconds=60`),
    );
    try {
      const first = await w.next();
      expect(`${first.type} ${String(meta(first.object)['name'])}`).toBe('ADDED after');
    } finally {
      w.close();
    }
  });

  it('a list paged on one server continues on the other at the same snapshot', async () => {
    const ns = uniqueNs();
    await createEvents(
      a,
      ns,
      ['a', 'b', 'c'].map((n) => newEvent(ns, n)),
    );
    const first = body(await a.request('GET', evPath(ns, undefined, 'limit=2')));
    await createEvents(b, ns, [newEvent(ns, 'd')]);
    const token = String(meta(first)['continue']);
    const second = body(
      await b.request('GET', evPath(ns, undefined, `limit=2&continue=${encodeURIComponent(token)}`)),
    );
    expect(meta(second)['resourceVersion']).toBe(meta(first)['resourceVersion']);
    expect([...names(first), ...names(second)]).toEqual(['a', 'b', 'c']);
    expect(meta(second)).not.toHaveProperty('continue');
  });
});
