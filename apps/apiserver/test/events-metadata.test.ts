import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  corePath,
  createEvents,
  evPath,
  meta,
  newCoreEvent,
  newEvent,
  startServer,
  STORES,
  uniqueNs,
  WatchStream,
  type Json,
} from './support/events.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const RFC3339_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const GENERATED_SUFFIX = '[bcdfghjklmnpqrstvwxz2456789]{5}';

function managed(obj: Json): Json[] {
  return meta(obj)['managedFields'] as Json[];
}

describe.each(STORES)('Event metadata on create and update (%s store)', (store) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('sets uid (v4), resourceVersion (increasing decimal) and creationTimestamp (RFC3339 seconds)', async () => {
    const ns = uniqueNs();
    const before = Date.now();
    const evs = await createEvents(server, ns, [newEvent(ns, 'm1'), newEvent(ns, 'm2'), newEvent(ns, 'm3')]);
    const metas = evs.map(meta);
    for (const m of metas) {
      expect(m['uid']).toMatch(UUID_V4);
      expect(m['resourceVersion']).toMatch(/^[1-9]\d*$/);
      expect(m['creationTimestamp']).toMatch(RFC3339_SECONDS);
      const t = Date.parse(String(m['creationTimestamp']));
      // Server time at whole seconds: not before the second the test started.
      expect(t).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(m).not.toHaveProperty('generation');
    }
    expect(new Set(metas.map((m) => m['uid'])).size).toBe(3);
    const rvs = metas.map((m) => BigInt(String(m['resourceVersion'])));
    expect(rvs[0]! < rvs[1]! && rvs[1]! < rvs[2]!).toBe(true);
  });

  it('wipes client-supplied uid, creationTimestamp, resourceVersion, deletionTimestamp and selfLink', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns), {
      body: newEvent(ns, 'wiped', {
        metadata: {
          name: 'wiped',
          uid: 'client-uid',
          creationTimestamp: '2001-01-01T00:00:00Z',
          resourceVersion: '42',
          deletionTimestamp: '2001-01-01T00:00:00Z',
          selfLink: '/x',
        },
      }),
    });
    expect(res.status).toBe(201);
    const m = meta(body(res));
    expect(m['uid']).toMatch(UUID_V4);
    expect(m['creationTimestamp']).not.toBe('2001-01-01T00:00:00Z');
    expect(m['resourceVersion']).not.toBe('42');
    expect(m).not.toHaveProperty('deletionTimestamp');
    expect(m).not.toHaveProperty('selfLink');
  });

  it('takes the namespace from the URL when the body has none, and accepts the same one', async () => {
    const ns = uniqueNs();
    const same = await server.request('POST', evPath(ns), {
      body: newEvent(ns, 'same', { metadata: { name: 'same', namespace: ns } }),
    });
    expect(same.status).toBe(201);
    const none = await server.request('POST', corePath(ns), { body: newCoreEvent(ns, 'none') });
    expect(meta(body(none))['namespace']).toBe(ns);
    expect(meta(body(same))['namespace']).toBe(ns);
  });

  it.each([
    ['ev-', 'ev-'],
    ['x'.repeat(70), 'x'.repeat(58)],
  ])('generateName %j: the prefix (at most 58 characters) plus 5 random characters', async (gen, prefix) => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns), {
      body: newEvent(ns, '', { metadata: { generateName: gen } }),
    });
    expect(res.status).toBe(201);
    const m = meta(body(res));
    expect(m['name']).toMatch(new RegExp(`^${prefix}${GENERATED_SUFFIX}$`));
    expect(m['generateName']).toBe(gen);
    expect((await server.request('GET', evPath(ns, String(m['name'])))).status).toBe(200);
  });

  it('generateName gives distinct names', async () => {
    const ns = uniqueNs();
    const made = await createEvents(
      server,
      ns,
      Array.from({ length: 5 }, () => newEvent(ns, '', { metadata: { generateName: 'same-' } })),
    );
    expect(new Set(made.map((e) => meta(e)['name'])).size).toBe(5);
  });

  it('records the fieldManager parameter as an Update managedFields entry of the request version', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns, undefined, 'fieldManager=my-controller'), {
      body: newEvent(ns, 'mf', { metadata: { name: 'mf', labels: { a: 'b' } } }),
    });
    const [entry, ...rest] = managed(body(res));
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      manager: 'my-controller',
      operation: 'Update',
      apiVersion: 'events.k8s.io/v1',
      fieldsType: 'FieldsV1',
    });
    expect(entry!['time']).toMatch(RFC3339_SECONDS);
    expect(entry!['fieldsV1']).toMatchObject({
      'f:metadata': { 'f:labels': { 'f:a': {} } },
      'f:note': {},
      'f:reason': {},
      'f:regarding': { 'f:kind': {}, 'f:name': {} },
    });
  });

  it('without fieldManager the manager is the User-Agent up to its first "/"', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', corePath(ns), {
      body: newCoreEvent(ns, 'ua'),
      headers: { 'user-agent': 'kubectl/v1.30.0 (linux/amd64) kubernetes/abc' },
    });
    expect(managed(body(res))).toEqual([expect.objectContaining({ manager: 'kubectl', apiVersion: 'v1' })]);
  });

  it('an update or patch that changes nothing keeps the resourceVersion and makes no watch event', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'same')]);
    const rv = String(meta(created!)['resourceVersion']);
    const w = await WatchStream.open(
      server,
      evPath(ns, undefined, `watch=true&resourceVersion=${rv}&timeoutSeconds=60`),
    );
    try {
      const put = await server.request('PUT', evPath(ns, 'same'), { body: created });
      expect(put.status).toBe(200);
      expect(put.json).toEqual(created);
      const patch = await server.request('PATCH', evPath(ns, 'same', 'fieldManager=other'), {
        body: { note: 'pod started' },
        contentType: 'application/merge-patch+json',
      });
      expect(patch.json).toEqual(created);
      const labelled = await server.request('PATCH', evPath(ns, 'same'), {
        body: { metadata: { labels: { a: 'b' } } },
        contentType: 'application/merge-patch+json',
      });
      const first = await w.next();
      expect(first.type).toBe('MODIFIED');
      expect(meta(first.object)['resourceVersion']).toBe(meta(body(labelled))['resourceVersion']);
    } finally {
      w.close();
    }
  });

  it('an Update manager keeps what it owned and takes what it changed from the others', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns, undefined, 'fieldManager=creator'), {
      body: newEvent(ns, 'owned', { metadata: { name: 'owned', labels: { a: '1' } } }),
    });
    expect(managed(body(res))).toHaveLength(1);
    const series = { count: 2, lastObservedTime: '2024-05-01T10:05:00.000000Z' };
    const patch = (manager: string, p: Json) =>
      server.request('PATCH', evPath(ns, 'owned', `fieldManager=${manager}`), {
        body: p,
        contentType: 'application/merge-patch+json',
      });
    const [creator] = managed(body(await patch('creator', { series })));
    // Still owns what it created the event with, plus the series.
    expect(creator!['fieldsV1']).toMatchObject({
      'f:note': {},
      'f:metadata': { 'f:labels': { 'f:a': {} } },
      'f:series': { 'f:count': {}, 'f:lastObservedTime': {} },
    });
    const other = body(await patch('labeller', { metadata: { labels: { a: '2', b: '3' } } }));
    const byManager = Object.fromEntries(managed(other).map((e) => [String(e['manager']), e['fieldsV1']]));
    expect(byManager['labeller']).toEqual({ 'f:metadata': { 'f:labels': { 'f:a': {}, 'f:b': {} } } });
    expect(byManager['creator']).not.toHaveProperty('f:metadata');
    expect(byManager['creator']).toHaveProperty('f:note');
  });

  it('keeps each manager its own entry across updates', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'two-managers')]);
    const res = await server.request('PUT', evPath(ns, 'two-managers', 'fieldManager=updater'), {
      body: { ...created, metadata: { ...meta(created!), labels: { x: 'y' } } },
    });
    expect(res.status).toBe(200);
    const managers = managed(body(res)).map((e) => e['manager']);
    expect(managers).toHaveLength(2);
    expect(managers).toContain('updater');
  });

  it('never records fields that the server dropped (unknown fields) as owned', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns, undefined, 'fieldManager=m'), {
      body: newEvent(ns, 'unknown', {
        bogus: 1,
        regarding: { kind: 'Pod', namespace: ns, name: 'p', nope: 1 },
      }),
    });
    expect(res.status).toBe(201);
    const fields = managed(body(res))[0]!['fieldsV1'] as Json;
    expect(fields).not.toHaveProperty('f:bogus');
    expect(fields['f:regarding']).toEqual({ 'f:kind': {}, 'f:namespace': {}, 'f:name': {} });
  });
});
