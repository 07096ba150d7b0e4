import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  corePath,
  createEvents,
  evPath,
  failure,
  invalidOptions,
  meta,
  newEvent,
  startServer,
  STORES,
  uniqueNs,
} from './support/events.js';

const DRY_RUN_UNSUPPORTED = 'Unsupported value: ["true"]: supported values: "All"';

describe.each(STORES)('Event write query parameters (%s store)', (store) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('dryRun=All on create returns the would-be object without resourceVersion and stores nothing', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns, undefined, 'dryRun=All'), {
      body: newEvent(ns, 'dry'),
    });
    expect(res.status).toBe(201);
    const m = meta(body(res));
    expect(m).toMatchObject({
      name: 'dry',
      namespace: ns,
      uid: expect.any(String) as unknown,
      creationTimestamp: expect.any(String) as unknown,
    });
    expect(m).not.toHaveProperty('resourceVersion');
    expect((await server.request('GET', evPath(ns, 'dry'))).status).toBe(404);
    expect(body(await server.request('GET', evPath(ns)))['items']).toEqual([]);
  });

  it('dryRun=All create of an existing name is still 409', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'taken')]);
    const res = await server.request('POST', evPath(ns, undefined, 'dryRun=All'), {
      body: newEvent(ns, 'taken'),
    });
    expect(res.status).toBe(409);
  });

  it('dryRun=All on update and patch changes nothing', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'keep')]);
    const series = { count: 2, lastObservedTime: '2024-05-01T10:05:00.000000Z' };
    const put = await server.request('PUT', evPath(ns, 'keep', 'dryRun=All'), {
      body: { ...created, series },
    });
    expect(put.status).toBe(200);
    expect(body(put)['series']).toEqual(series);
    const patch = await server.request('PATCH', evPath(ns, 'keep', 'dryRun=All'), {
      body: { series },
      contentType: 'application/merge-patch+json',
    });
    expect(patch.status).toBe(200);
    const now = body(await server.request('GET', evPath(ns, 'keep')));
    expect(now).toEqual(created);
  });

  it.each([
    ['POST', 'CreateOptions'],
    ['PUT', 'UpdateOptions'],
    ['PATCH', 'PatchOptions'],
    ['DELETE', 'DeleteOptions'],
  ])('dryRun=true on %s is 422 %s', async (method, kind) => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'x')]);
    const path = method === 'POST' ? evPath(ns, undefined, 'dryRun=true') : evPath(ns, 'x', 'dryRun=true');
    const res = await server.request(method, path, {
      ...(method === 'DELETE' ? {} : { body: method === 'PATCH' ? {} : newEvent(ns, 'x') }),
      ...(method === 'PATCH' ? { contentType: 'application/merge-patch+json' } : {}),
    });
    expect(res.status).toBe(422);
    expect(res.json).toEqual(
      invalidOptions(kind, [['dryRun', 'FieldValueNotSupported', DRY_RUN_UNSUPPORTED]]),
    );
  });

  it('fieldManager longer than 128 bytes is 422', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns, undefined, `fieldManager=${'m'.repeat(129)}`), {
      body: newEvent(ns, 'fm'),
    });
    expect(res.json).toEqual(
      invalidOptions('CreateOptions', [
        ['fieldManager', 'FieldValueTooLong', 'Too long: may not be more than 128 bytes'],
      ]),
    );
    const ok = await server.request('POST', evPath(ns, undefined, `fieldManager=${'m'.repeat(128)}`), {
      body: newEvent(ns, 'fm'),
    });
    expect(ok.status).toBe(201);
  });

  it('fieldValidation=Strict refuses unknown fields with 400', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns, undefined, 'fieldValidation=Strict'), {
      body: newEvent(ns, 'strict', { foo: 1, regarding: { kind: 'Pod', namespace: ns, bar: 2 } }),
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(
      failure(
        400,
        'BadRequest',
        'Event in version "v1" cannot be handled as a Event: strict decoding error: unknown field "regarding.bar", unknown field "foo"',
      ),
    );
    expect((await server.request('GET', evPath(ns, 'strict'))).status).toBe(404);
  });

  it('fieldValidation=Warn (and the default) drops unknown fields with a Warning header each', async () => {
    const ns = uniqueNs();
    for (const [name, query] of [
      ['warn', 'fieldValidation=Warn'],
      ['default', ''],
    ] as const) {
      const res = await server.request('POST', evPath(ns, undefined, query), {
        body: newEvent(ns, name, { foo: 1, 'we"ird': 2 }),
      });
      expect(res.status).toBe(201);
      const warnings = [res.headers['warning']].flat().join(', ');
      expect(warnings).toBe('299 - "unknown field \\"foo\\"", 299 - "unknown field \\"we\\\\\\"ird\\""');
      expect(body(res)).not.toHaveProperty('foo');
    }
  });

  it('repeated members: Strict refuses them (400), Warn warns and keeps the last value', async () => {
    const ns = uniqueNs();
    const text = (name: string) =>
      JSON.stringify(newEvent(ns, name, { metadata: { name, labels: { a: '1' } } }))
        .replace('"reason":"Started"', '"reason":"First","reason":"Started"')
        .replace('"labels":{"a":"1"}', '"labels":{"a":"0","a":"1"}');
    const strict = await server.request('POST', evPath(ns, undefined, 'fieldValidation=Strict'), {
      body: text('dup-strict'),
    });
    expect(strict.json).toEqual(
      failure(
        400,
        'BadRequest',
        'Event in version "v1" cannot be handled as a Event: strict decoding error: duplicate field "metadata.labels.a", duplicate field "reason"',
      ),
    );
    const warn = await server.request('POST', evPath(ns), { body: text('dup-warn') });
    expect(warn.status).toBe(201);
    expect([warn.headers['warning']].flat().join(', ')).toBe(
      '299 - "duplicate field \\"metadata.labels.a\\"", 299 - "duplicate field \\"reason\\""',
    );
    expect(body(warn)).toMatchObject({ reason: 'Started', metadata: { labels: { a: '1' } } });
    const ignore = await server.request('POST', evPath(ns, undefined, 'fieldValidation=Ignore'), {
      body: text('dup-ignore'),
    });
    expect(ignore.status).toBe(201);
    expect(ignore.headers['warning']).toBeUndefined();
  });

  it('fieldValidation=Ignore drops unknown fields silently; an invalid value is 422', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns, undefined, 'fieldValidation=Ignore'), {
      body: newEvent(ns, 'ignore', { foo: 1 }),
    });
    expect(res.status).toBe(201);
    expect(res.headers['warning']).toBeUndefined();
    const bad = await server.request('POST', evPath(ns, undefined, 'fieldValidation=Loud'), {
      body: newEvent(ns, 'bad'),
    });
    expect(bad.json).toEqual(
      invalidOptions('CreateOptions', [
        [
          'fieldValidation',
          'FieldValueNotSupported',
          'Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"',
        ],
      ]),
    );
  });

  it('pretty=true indents without a trailing newline; plain output ends with one; curl gets pretty by default', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'p')]);
    const plain = await server.request('GET', evPath(ns, 'p'));
    expect(plain.text.endsWith('}\n')).toBe(true);
    expect(plain.text.split('\n')).toHaveLength(2);
    const pretty = await server.request('GET', evPath(ns, 'p', 'pretty=true'));
    expect(pretty.text).toBe(JSON.stringify(plain.json, null, 2));
    const curl = await server.request('GET', corePath(ns, 'p'), { headers: { 'user-agent': 'curl/8.5.0' } });
    expect(curl.text).toBe(JSON.stringify(curl.json, null, 2));
    const curlOff = await server.request('GET', corePath(ns, 'p', 'pretty=false'), {
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    expect(curlOff.text).toBe(JSON.stringify(curlOff.json) + '\n');
    const err = await server.request('GET', evPath(ns, 'nope', 'pretty=1'));
    expect(err.text).toBe(JSON.stringify(err.json, null, 2));
  });

  it('request bodies over 3 MiB are 413', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns), {
      body: newEvent(ns, 'big', { note: 'x'.repeat(3 * 1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect(res.json).toEqual(
      failure(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728'),
    );
  });
});

describe.each(STORES)('Event delete options (%s store)', (store) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('a DeleteOptions body with dryRun ["All"] deletes nothing, query or body', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'stay')]);
    const res = await server.request('DELETE', evPath(ns, 'stay'), {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] },
    });
    expect(res.status).toBe(200);
    expect(body(res)).toMatchObject({
      status: 'Success',
      details: { name: 'stay', uid: meta(created!)['uid'] },
    });
    expect((await server.request('DELETE', evPath(ns, 'stay', 'dryRun=All'))).status).toBe(200);
    const coll = await server.request('DELETE', evPath(ns, undefined, 'dryRun=All'));
    expect(coll.status).toBe(200);
    expect(body(await server.request('GET', evPath(ns, 'stay')))).toEqual(created);
  });

  it('preconditions: a wrong uid or resourceVersion is 409 and deletes nothing; matching ones delete', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'pre')]);
    const { uid, resourceVersion } = meta(created!) as { uid: string; resourceVersion: string };
    const wrongUid = await server.request('DELETE', evPath(ns, 'pre'), {
      body: { preconditions: { uid: 'other' } },
    });
    expect(wrongUid.status).toBe(409);
    expect(wrongUid.json).toEqual(
      failure(
        409,
        'Conflict',
        `Operation cannot be fulfilled on Event "pre": the UID in the precondition (other) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
        { name: 'pre', kind: 'Event' },
      ),
    );
    const wrongRv = await server.request('DELETE', corePath(ns, 'pre'), {
      body: { preconditions: { resourceVersion: '1' } },
    });
    expect(wrongRv.json).toEqual(
      failure(
        409,
        'Conflict',
        `Operation cannot be fulfilled on Event "pre": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${resourceVersion}). The object might have been modified`,
        { name: 'pre', kind: 'Event' },
      ),
    );
    expect((await server.request('GET', evPath(ns, 'pre'))).status).toBe(200);
    const ok = await server.request('DELETE', evPath(ns, 'pre'), {
      body: { preconditions: { uid, resourceVersion } },
    });
    expect(ok.status).toBe(200);
    expect((await server.request('GET', evPath(ns, 'pre'))).status).toBe(404);
  });

  it('propagationPolicy is validated (422) and otherwise ignored; gracePeriodSeconds is accepted', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'a'), newEvent(ns, 'b'), newEvent(ns, 'c')]);
    const bad = await server.request('DELETE', evPath(ns, 'a', 'propagationPolicy=Sideways'));
    expect(bad.json).toEqual(
      invalidOptions('DeleteOptions', [
        [
          'propagationPolicy',
          'FieldValueNotSupported',
          'Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
        ],
      ]),
    );
    const badBody = await server.request('DELETE', evPath(ns, 'a'), {
      body: { propagationPolicy: 'Sideways' },
    });
    expect(badBody.status).toBe(422);
    expect((await server.request('DELETE', evPath(ns, 'a', 'propagationPolicy=Foreground'))).status).toBe(
      200,
    );
    expect((await server.request('DELETE', evPath(ns, 'b', 'gracePeriodSeconds=30'))).status).toBe(200);
    const both = await server.request('DELETE', evPath(ns, 'c'), {
      body: {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        gracePeriodSeconds: 0,
        propagationPolicy: 'Background',
      },
    });
    expect(both.status).toBe(200);
    expect(body(await server.request('GET', evPath(ns)))['items']).toEqual([]);
  });
});
