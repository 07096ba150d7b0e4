import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  corePath,
  createEvents,
  evPath,
  failure,
  invalidEvent,
  invalidOptions,
  meta,
  newCoreEvent,
  newEvent,
  notFoundEvents,
  startServer,
  STORES,
  uniqueNs,
  type Json,
} from './support/events.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';
const series = { count: 2, lastObservedTime: '2024-05-01T10:05:00.000000Z' };

const APPLIED_YAML = (ns: string, name: string) => `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: ${name}
  labels:
    applied: "yes"
eventTime: "2024-05-01T10:00:00.000000Z"
action: Applied
reason: ServerSide
type: Normal
reportingController: keel.io/apply
reportingInstance: apply-1
regarding:
  kind: Pod
  namespace: ${ns}
  name: pod-1
note: applied
`;

describe.each(STORES)('Event PATCH (%s store)', (store) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(async () => {
    await server.stop();
  });

  async function patch(path: string, patchBody: unknown, contentType: string) {
    return server.request('PATCH', path, {
      body: typeof patchBody === 'string' ? patchBody : JSON.stringify(patchBody),
      contentType,
    });
  }

  it.each([
    ['JSON patch', JSON_PATCH, [{ op: 'add', path: '/series', value: series }]],
    ['merge patch', MERGE, { series }],
    ['strategic merge patch (the events recorder)', SMP, { series }],
    ['merge patch with a charset parameter', `${MERGE}; charset=utf-8`, { series }],
  ])('%s updates the series: 200 with a new resourceVersion', async (_t, type, p) => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'p')]);
    const res = await patch(evPath(ns, 'p'), p, type);
    expect(res.status).toBe(200);
    const patched = body(res);
    expect(patched['series']).toEqual(series);
    expect(BigInt(String(meta(patched)['resourceVersion']))).toBeGreaterThan(
      BigInt(String(meta(created!)['resourceVersion'])),
    );
    expect(body(await server.request('GET', evPath(ns, 'p')))).toEqual(patched);
  });

  it('merge patch adds and removes labels (null deletes)', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [
      newEvent(ns, 'l', { metadata: { name: 'l', labels: { a: '1', b: '2' } } }),
    ]);
    const res = await patch(evPath(ns, 'l'), { metadata: { labels: { a: null, c: '3' } } }, MERGE);
    expect(meta(body(res))['labels']).toEqual({ b: '2', c: '3' });
  });

  it('JSON patch test operations guard the patch: a failed test is 422 and changes nothing', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 't')]);
    const res = await patch(
      evPath(ns, 't'),
      [
        { op: 'test', path: '/reason', value: 'NotTheReason' },
        { op: 'add', path: '/series', value: series },
      ],
      JSON_PATCH,
    );
    expect(res.status).toBe(422);
    expect(body(res)).toMatchObject({ reason: 'Invalid', code: 422 });
    expect(body(await server.request('GET', evPath(ns, 't')))).toEqual(created);
  });

  it('the legacy core recorder patches count, lastTimestamp and message (core/v1 is mutable)', async () => {
    const ns = uniqueNs();
    await server.request('POST', corePath(ns), { body: newCoreEvent(ns, 'legacy') });
    const res = await patch(
      corePath(ns, 'legacy'),
      { count: 2, lastTimestamp: '2024-05-01T10:10:00Z', message: 'pulled twice' },
      SMP,
    );
    expect(res.status).toBe(200);
    expect(body(res)).toMatchObject({
      count: 2,
      lastTimestamp: '2024-05-01T10:10:00Z',
      message: 'pulled twice',
    });
  });

  it('a patch that breaks an events.k8s.io/v1 rule is 422 (note is immutable there)', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'imm')]);
    const res = await patch(evPath(ns, 'imm'), { note: 'rewritten' }, MERGE);
    expect(res.json).toEqual(
      invalidEvent('imm', [
        ['message', 'FieldValueInvalid', 'Invalid value: "rewritten": field is immutable'],
      ]),
    );
  });

  it('a resourceVersion in the patch is a precondition: stale → 409, current → 200', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'rv')]);
    const rv = String(meta(created!)['resourceVersion']);
    expect((await patch(evPath(ns, 'rv'), { metadata: { labels: { x: '1' } } }, MERGE)).status).toBe(200);
    const stale = await patch(evPath(ns, 'rv'), { metadata: { resourceVersion: rv }, series }, MERGE);
    expect(stale.status).toBe(409);
    expect(stale.json).toEqual(
      failure(
        409,
        'Conflict',
        'Operation cannot be fulfilled on events.events.k8s.io "rv": the object has been modified; please apply your changes to the latest version and try again',
        { name: 'rv', group: 'events.k8s.io', kind: 'events' },
      ),
    );
    const current = String(meta(body(await server.request('GET', evPath(ns, 'rv'))))['resourceVersion']);
    const ok = await patch(evPath(ns, 'rv'), { metadata: { resourceVersion: current }, series }, MERGE);
    expect(ok.status).toBe(200);
  });

  it.each([
    [JSON_PATCH, [{ op: 'add', path: '/series', value: series }]],
    [MERGE, { series }],
    [SMP, { series }],
  ])('a %s patch of a missing object is 404', async (type, p) => {
    const ns = uniqueNs();
    const res = await patch(evPath(ns, 'missing'), p, type);
    expect(res.status).toBe(404);
    expect(res.json).toEqual(notFoundEvents('missing'));
    const core = await patch(corePath(ns, 'missing'), p, type);
    expect(core.json).toEqual(notFoundEvents('missing', true));
  });

  it.each(['application/json', 'text/plain', 'application/yaml'])('content type %s is 415', async (type) => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'ct')]);
    const res = await patch(evPath(ns, 'ct'), { series }, type);
    expect(res.status).toBe(415);
    expect(res.json).toEqual(
      failure(
        415,
        'UnsupportedMediaType',
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
      ),
    );
  });

  it('apply (YAML) creates a missing object with 201, then merges into it with 200', async () => {
    const ns = uniqueNs();
    const created = await patch(
      evPath(ns, 'applied', 'fieldManager=applier'),
      APPLIED_YAML(ns, 'applied'),
      APPLY,
    );
    expect(created.status).toBe(201);
    expect(body(created)).toMatchObject({
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata: { name: 'applied', namespace: ns, labels: { applied: 'yes' } },
      note: 'applied',
      eventTime: '2024-05-01T10:00:00.000000Z',
    });
    const entries = meta(body(created))['managedFields'] as Json[];
    expect(entries).toEqual([
      expect.objectContaining({ manager: 'applier', operation: 'Apply', apiVersion: 'events.k8s.io/v1' }),
    ]);
    const again = await patch(
      evPath(ns, 'applied', 'fieldManager=applier&force=true'),
      `${APPLIED_YAML(ns, 'applied')}series:\n  count: 2\n  lastObservedTime: "2024-05-01T10:05:00.000000Z"\n`,
      APPLY,
    );
    expect(again.status).toBe(200);
    expect(body(again)['series']).toEqual(series);
    expect(meta(body(again))['uid']).toBe(meta(body(created))['uid']);
  });

  it('apply accepts a JSON body too', async () => {
    const ns = uniqueNs();
    const res = await patch(
      evPath(ns, 'json-apply', 'fieldManager=applier'),
      newEvent(ns, 'json-apply'),
      APPLY,
    );
    expect(res.status).toBe(201);
    expect(body(await server.request('GET', corePath(ns, 'json-apply')))).toMatchObject({
      message: 'pod started',
    });
  });

  it('apply without fieldManager, and force on a non-apply patch, are 422', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'opts')]);
    const noManager = await patch(evPath(ns, 'opts'), APPLIED_YAML(ns, 'opts'), APPLY);
    expect(noManager.json).toEqual(
      invalidOptions('PatchOptions', [
        ['fieldManager', 'FieldValueRequired', 'Required value: is required for apply patch'],
      ]),
    );
    const force = await patch(evPath(ns, 'opts', 'force=true'), { series }, MERGE);
    expect(force.json).toEqual(
      invalidOptions('PatchOptions', [
        ['force', 'FieldValueForbidden', 'Forbidden: may not be specified for non-apply patch'],
      ]),
    );
  });

  it.each([
    [MERGE, 'fieldValidation=Strict', { foo: 1 }, 'strict decoding error: unknown field "foo"'],
    [
      JSON_PATCH,
      'fieldValidation=Strict',
      [{ op: 'add', path: '/foo', value: 1 }],
      'strict decoding error: unknown field "foo"',
    ],
    [MERGE, '', { note: 5 }, 'json: cannot unmarshal number into Go struct field Event.note of type string'],
  ])(
    'a %s patch (%s) whose result does not decode is 422 on the patched document',
    async (type, query, p, detail) => {
      const ns = uniqueNs();
      await createEvents(server, ns, [newEvent(ns, 'bad')]);
      const res = await patch(evPath(ns, 'bad', query), p, type);
      expect(res.status).toBe(422);
      const status = body(res);
      const message = String(status['message']);
      // The value shown is the whole patched object, as Go marshals it.
      const shown = /^ "" is invalid: patch: Invalid value: "(.*)": (.*)$/s.exec(message);
      expect(shown?.[2]).toBe(detail);
      const doc = JSON.parse(JSON.parse(`"${shown?.[1] ?? ''}"`) as string) as Json;
      expect(doc).toMatchObject({ kind: 'Event', metadata: { name: 'bad' } });
      expect(status).toMatchObject({
        reason: 'Invalid',
        code: 422,
        details: {
          causes: [
            {
              reason: 'FieldValueInvalid',
              field: 'patch',
              message: message.slice(' "" is invalid: patch: '.length),
            },
          ],
        },
      });
    },
  );

  it('a strict strategic merge patch with an unknown field shows the patch as Go prints a map', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'smp')]);
    const res = await patch(
      evPath(ns, 'smp', 'fieldValidation=Strict'),
      { series, foo: { b: 1, a: 'x' } },
      SMP,
    );
    expect(res.json).toEqual(
      failure(
        422,
        'Invalid',
        ' "" is invalid: patch: Invalid value: "map[foo:map[a:x b:1] series:map[count:2 lastObservedTime:2024-05-01T10:05:00.000000Z]]": strict decoding error: unknown field "foo"',
        {
          causes: [
            {
              reason: 'FieldValueInvalid',
              message:
                'Invalid value: "map[foo:map[a:x b:1] series:map[count:2 lastObservedTime:2024-05-01T10:05:00.000000Z]]": strict decoding error: unknown field "foo"',
              field: 'patch',
            },
          ],
        },
      ),
    );
  });

  it('unknown fields in a patch are dropped with a Warning by default', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'warn')]);
    const res = await patch(evPath(ns, 'warn'), { series, foo: 1 }, MERGE);
    expect(res.status).toBe(200);
    expect(res.headers['warning']).toBe('299 - "unknown field \\"foo\\""');
    expect(body(res)).not.toHaveProperty('foo');
  });

  it('a patch records its manager as an Update entry', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'mgr')]);
    const res = await patch(evPath(ns, 'mgr', 'fieldManager=recorder'), { series }, SMP);
    const entries = meta(body(res))['managedFields'] as Json[];
    expect(entries.find((e) => e['manager'] === 'recorder')).toMatchObject({
      operation: 'Update',
      fieldsV1: { 'f:series': { 'f:count': {}, 'f:lastObservedTime': {} } },
    });
  });
});
