import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  corePath,
  createEvents,
  evPath,
  failure,
  items,
  meta,
  names,
  newCoreEvent,
  newEvent,
  notFoundEvents,
  startServer,
  STORES,
  uniqueNs,
  type Json,
} from './support/events.js';

/** What the server adds to metadata; the rest of a response is compared exactly. */
const serverMeta = (name: string, ns: string) => ({
  name,
  namespace: ns,
  uid: expect.stringMatching(
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  ) as unknown,
  resourceVersion: expect.stringMatching(/^[1-9]\d*$/) as unknown,
  creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) as unknown,
  managedFields: expect.any(Array) as unknown,
});

describe.each(STORES)('Event CRUD through HTTPS (%s store)', (store) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('creates through events.k8s.io/v1 (201) and gets it back through both versions', async () => {
    const ns = uniqueNs();
    const created = await server.request('POST', evPath(ns), { body: newEvent(ns, 'ev1') });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe('application/json');
    expect(created.json).toEqual({
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata: serverMeta('ev1', ns),
      eventTime: '2024-05-01T10:00:00.123456Z',
      reportingController: 'keel.io/scheduler',
      reportingInstance: 'scheduler-1',
      action: 'Scheduled',
      reason: 'Started',
      regarding: { kind: 'Pod', namespace: ns, name: 'pod-1', apiVersion: 'v1' },
      note: 'pod started',
      type: 'Normal',
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
    const got = await server.request('GET', evPath(ns, 'ev1'));
    expect(got.status).toBe(200);
    expect(got.json).toEqual(created.json);
    const core = await server.request('GET', corePath(ns, 'ev1'));
    expect(core.status).toBe(200);
    expect(core.json).toEqual({
      kind: 'Event',
      apiVersion: 'v1',
      metadata: meta(body(created)),
      involvedObject: { kind: 'Pod', namespace: ns, name: 'pod-1', apiVersion: 'v1' },
      reason: 'Started',
      message: 'pod started',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: 'Normal',
      eventTime: '2024-05-01T10:00:00.123456Z',
      action: 'Scheduled',
      reportingComponent: 'keel.io/scheduler',
      reportingInstance: 'scheduler-1',
    });
  });

  it('maps every field between the views: events.k8s.io/v1 → core/v1', async () => {
    const ns = uniqueNs();
    const related = { kind: 'Node', name: 'node-1', uid: 'n-uid', apiVersion: 'v1', fieldPath: 'spec' };
    const series = { count: 3, lastObservedTime: '2024-05-01T10:01:00.500000Z' };
    await createEvents(server, ns, [newEvent(ns, 'full', { related, series })]);
    const core = body(await server.request('GET', corePath(ns, 'full')));
    expect(core).toMatchObject({
      involvedObject: { kind: 'Pod', namespace: ns, name: 'pod-1', apiVersion: 'v1' },
      related,
      message: 'pod started',
      reportingComponent: 'keel.io/scheduler',
      series,
    });
    expect(core).not.toHaveProperty('note');
    expect(core).not.toHaveProperty('regarding');
  });

  it('maps every field between the views: core/v1 → events.k8s.io/v1', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', corePath(ns), {
      body: newCoreEvent(ns, 'legacy', {
        count: 4,
        related: { kind: 'Node', name: 'node-1' },
        reportingComponent: 'nodeagent',
        reportingInstance: 'node-1',
      }),
    });
    expect(res.status).toBe(201);
    const ev = body(await server.request('GET', evPath(ns, 'legacy')));
    expect(ev).toEqual({
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata: meta(body(res)),
      eventTime: null,
      reportingController: 'nodeagent',
      reportingInstance: 'node-1',
      reason: 'Pulled',
      regarding: { kind: 'Pod', namespace: ns, name: 'pod-1' },
      related: { kind: 'Node', name: 'node-1' },
      note: 'image pulled',
      type: 'Normal',
      deprecatedSource: { component: 'nodeagent', host: 'node-1' },
      deprecatedFirstTimestamp: '2024-05-01T10:00:00Z',
      deprecatedLastTimestamp: '2024-05-01T10:00:05Z',
      deprecatedCount: 4,
    });
  });

  it.each([
    ['events.k8s.io/v1', false],
    ['core/v1', true],
  ])('get and create conflicts through %s: 404 NotFound, 409 AlreadyExists', async (_v, core) => {
    const ns = uniqueNs();
    const path = core ? corePath : evPath;
    const make = core ? newCoreEvent : newEvent;
    expect((await server.request('GET', path(ns, 'missing'))).json).toEqual(notFoundEvents('missing', core));
    expect((await server.request('GET', path(ns, 'missing'))).status).toBe(404);
    expect((await server.request('POST', path(ns), { body: make(ns, 'dup') })).status).toBe(201);
    const again = await server.request('POST', path(ns), { body: make(ns, 'dup') });
    expect(again.status).toBe(409);
    const qr = core ? 'events' : 'events.events.k8s.io';
    expect(again.json).toEqual(
      failure(409, 'AlreadyExists', `${qr} "dup" already exists`, {
        name: 'dup',
        ...(core ? {} : { group: 'events.k8s.io' }),
        kind: 'events',
      }),
    );
  });

  it('lists one namespace and all namespaces through both versions, items without kind/apiVersion', async () => {
    const [a, b] = [uniqueNs('a'), uniqueNs('b')];
    await createEvents(server, a, [newEvent(a, 'one'), newEvent(a, 'two')]);
    await createEvents(server, b, [newEvent(b, 'three')]);
    for (const [path, apiVersion] of [
      [evPath(a), 'events.k8s.io/v1'],
      [corePath(a), 'v1'],
    ] as const) {
      const res = await server.request('GET', path);
      expect(res.status).toBe(200);
      const list = body(res);
      expect(list).toMatchObject({
        kind: 'EventList',
        apiVersion,
        metadata: { resourceVersion: expect.any(String) as unknown },
      });
      expect(names(list)).toEqual(['one', 'two']);
      for (const item of items(list)) {
        expect(item).not.toHaveProperty('kind');
        expect(item).not.toHaveProperty('apiVersion');
      }
    }
    for (const path of ['/apis/events.k8s.io/v1/events', '/api/v1/events']) {
      const all = body(await server.request('GET', path));
      const mine = items(all).filter((i) => [a, b].includes(String(meta(i)['namespace'])));
      expect(mine.map((i) => `${String(meta(i)['namespace'])}/${String(meta(i)['name'])}`)).toEqual([
        `${a}/one`,
        `${a}/two`,
        `${b}/three`,
      ]);
    }
  });

  it('update (PUT): 200 with a new resourceVersion, 201 create-on-update, unconditional update', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'up')]);
    const rv1 = String(meta(created!)['resourceVersion']);
    const series = { count: 2, lastObservedTime: '2024-05-01T10:05:00.000000Z' };
    const put = await server.request('PUT', evPath(ns, 'up'), { body: { ...created, series } });
    expect(put.status).toBe(200);
    const rv2 = String(meta(body(put))['resourceVersion']);
    expect(BigInt(rv2)).toBeGreaterThan(BigInt(rv1));
    expect(body(put)['series']).toEqual(series);
    expect(meta(body(put))['uid']).toBe(meta(created!)['uid']);

    const fresh = await server.request('PUT', evPath(ns, 'brand-new'), { body: newEvent(ns, 'brand-new') });
    expect(fresh.status).toBe(201);
    expect(meta(body(fresh))).toMatchObject(serverMeta('brand-new', ns));

    // No resourceVersion at all: accepted (events allow unconditional updates).
    const { resourceVersion: _rv, ...noRv } = meta(body(put));
    const uncond = await server.request('PUT', evPath(ns, 'up'), {
      body: { ...body(put), metadata: noRv, series: { ...series, count: 3 } },
    });
    expect(uncond.status).toBe(200);
    expect(body(uncond)['series']).toEqual({ ...series, count: 3 });
  });

  it('update (PUT) with a stale resourceVersion is 409 Conflict on both versions', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'stale')]);
    const series = { count: 2, lastObservedTime: '2024-05-01T10:05:00.000000Z' };
    expect((await server.request('PUT', evPath(ns, 'stale'), { body: { ...created, series } })).status).toBe(
      200,
    );
    const res = await server.request('PUT', evPath(ns, 'stale'), {
      body: { ...created, series: { ...series, count: 5 } },
    });
    expect(res.status).toBe(409);
    expect(res.json).toEqual(
      failure(
        409,
        'Conflict',
        'Operation cannot be fulfilled on events.events.k8s.io "stale": the object has been modified; please apply your changes to the latest version and try again',
        { name: 'stale', group: 'events.k8s.io', kind: 'events' },
      ),
    );
    const core = body(await server.request('GET', corePath(ns, 'stale')));
    const coreStale = {
      ...core,
      metadata: { ...meta(core), resourceVersion: meta(created!)['resourceVersion'] },
    };
    const res2 = await server.request('PUT', corePath(ns, 'stale'), { body: { ...coreStale, message: 'x' } });
    expect(res2.json).toEqual(
      failure(
        409,
        'Conflict',
        'Operation cannot be fulfilled on events "stale": the object has been modified; please apply your changes to the latest version and try again',
        { name: 'stale', kind: 'events' },
      ),
    );
  });

  it('core/v1 updates may change what events.k8s.io/v1 keeps immutable', async () => {
    const ns = uniqueNs();
    await server.request('POST', corePath(ns), { body: newCoreEvent(ns, 'legacy') });
    const cur = body(await server.request('GET', corePath(ns, 'legacy')));
    const res = await server.request('PUT', corePath(ns, 'legacy'), {
      body: { ...cur, message: 'pulled again', count: 2, lastTimestamp: '2024-05-01T10:09:00Z' },
    });
    expect(res.status).toBe(200);
    expect(body(res)).toMatchObject({
      message: 'pulled again',
      count: 2,
      lastTimestamp: '2024-05-01T10:09:00Z',
    });
  });

  it.each([
    ['events.k8s.io/v1', false],
    ['core/v1', true],
  ])('delete through %s: 200 Success Status with the uid, then 404', async (_v, core) => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'gone')]);
    const path = core ? corePath : evPath;
    const res = await server.request('DELETE', path(ns, 'gone'));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: {
        name: 'gone',
        ...(core ? {} : { group: 'events.k8s.io' }),
        kind: 'events',
        uid: meta(created!)['uid'],
      },
    });
    expect((await server.request('GET', evPath(ns, 'gone'))).status).toBe(404);
    const again = await server.request('DELETE', path(ns, 'gone'));
    expect(again.status).toBe(404);
    expect(again.json).toEqual(notFoundEvents('gone', core));
  });

  it('deletecollection deletes what the selectors pick and returns the deleted items', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [
      newEvent(ns, 'keep', { metadata: { name: 'keep', labels: { app: 'a' } } }),
      newEvent(ns, 'drop-1', { metadata: { name: 'drop-1', labels: { app: 'b' } } }),
      newEvent(ns, 'drop-2', { metadata: { name: 'drop-2', labels: { app: 'b' } }, reason: 'Killed' }),
    ]);
    const res = await server.request('DELETE', evPath(ns, undefined, 'labelSelector=app%3Db'));
    expect(res.status).toBe(200);
    const deleted = body(res);
    expect(deleted).toMatchObject({ kind: 'EventList', apiVersion: 'events.k8s.io/v1' });
    expect(names(deleted).sort()).toEqual(['drop-1', 'drop-2']);
    expect(names(body(await server.request('GET', evPath(ns))))).toEqual(['keep']);

    await createEvents(server, ns, [newEvent(ns, 'other', { reason: 'Killed' })]);
    const byField = await server.request('DELETE', corePath(ns, undefined, 'fieldSelector=reason%3DKilled'));
    expect(byField.status).toBe(200);
    expect(body(byField)).toMatchObject({ kind: 'EventList', apiVersion: 'v1' });
    expect(names(body(byField))).toEqual(['other']);
    expect(names(body(await server.request('GET', corePath(ns))))).toEqual(['keep']);

    const none = await server.request('DELETE', evPath(ns, undefined, 'labelSelector=app%3Dzzz'));
    expect(body(none)['items']).toEqual([]);
  });

  it.each([
    [
      'create',
      'POST',
      'the namespace of the provided object does not match the namespace sent on the request',
    ],
    [
      'update',
      'PUT',
      'the namespace of the object (elsewhere) does not match the namespace on the request (NS)',
    ],
  ])('%s with a body namespace that differs from the URL is 400', async (_what, method, message) => {
    const ns = uniqueNs();
    const ev: Json = newEvent(ns, 'moved', { metadata: { name: 'moved', namespace: 'elsewhere' } });
    const res = await server.request(method, method === 'POST' ? evPath(ns) : evPath(ns, 'moved'), {
      body: ev,
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(failure(400, 'BadRequest', message.replace('NS', ns)));
    expect((await server.request('GET', evPath(ns, 'moved'))).status).toBe(404);
  });
});
