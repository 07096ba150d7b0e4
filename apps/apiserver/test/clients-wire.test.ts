/**
 * What the real clients rely on at the wire, checked on the built server on both stores: Tables on
 * watches (kubectl get -w), the protobuf OpenAPI v2 (kubectl's client-side validation), the apply
 * configuration checks, and managedFields across the two Event APIs and kubectl's rewrite of them.
 */
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
  type Json,
} from './support/events.js';
import { openWatch } from './support/clients/http-watch.js';
import { fieldsByManager } from './support/clients/manifests.js';

const TABLE_ACCEPT =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

describe.each(STORES)('the wire details clients need (%s store)', (store) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('a watch asked for Tables sends one-row Tables, the columns only on the first', async () => {
    const ns = uniqueNs('tw');
    const [created] = await createEvents(server, ns, [newEvent(ns, 't1')]);
    const w = await openWatch(server, evPath(ns, undefined, 'watch=true'), { accept: TABLE_ACCEPT });
    try {
      expect([w.status, w.contentType]).toEqual([200, 'application/json']);
      await w.waitFor(1);
      await server.request('PATCH', evPath(ns, 't1'), {
        body: { metadata: { labels: { a: 'b' } } },
        contentType: MERGE,
      });
      await server.request('DELETE', evPath(ns, 't1'));
      await w.waitFor(3);
    } finally {
      w.close();
    }
    const tables = w.events.map((e) => e['object'] as Json);
    expect(w.events.map((e) => e['type'])).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(tables.map((t) => [t['kind'], t['apiVersion']])).toEqual(
      Array(3).fill(['Table', 'meta.k8s.io/v1']),
    );
    expect((tables[0]?.['columnDefinitions'] as Json[]).map((c) => c['name'])).toEqual([
      'Last Seen',
      'Type',
      'Reason',
      'Object',
      'Subobject',
      'Source',
      'Message',
      'First Seen',
      'Count',
      'Name',
    ]);
    expect(tables.slice(1).map((t) => t['columnDefinitions'])).toEqual([null, null]);
    const rows = tables.map((t) => (t['rows'] as Json[])[0] ?? {});
    expect(rows.map((r) => (r['cells'] as unknown[]).slice(1, 4))).toEqual(
      Array(3).fill(['Normal', 'Started', 'pod/pod-1']),
    );
    expect(rows[0]?.['object']).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: meta(created!),
    });
  });

  it('a bookmark on a Table watch is a rowless Table carrying the resourceVersion', async () => {
    const ns = uniqueNs('tb');
    await createEvents(server, ns, [newEvent(ns, 'b1')]);
    const w = await openWatch(
      server,
      evPath(
        ns,
        undefined,
        'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      ),
      { accept: TABLE_ACCEPT },
    );
    try {
      await w.waitFor(2);
    } finally {
      w.close();
    }
    const [, bookmark] = w.events;
    expect(bookmark).toEqual({
      type: 'BOOKMARK',
      object: {
        kind: 'Table',
        apiVersion: 'meta.k8s.io/v1',
        metadata: {
          resourceVersion: expect.stringMatching(/^\d+$/) as unknown,
          annotations: { 'k8s.io/initial-events-end': 'true' },
        },
        columnDefinitions: null,
        rows: [],
      },
    });
  });

  it('serves /openapi/v2 as protobuf to the Accept kubectl sends, and JSON otherwise', async () => {
    const pb = await server.request('GET', '/openapi/v2', {
      headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
    });
    expect([pb.status, pb.headers['content-type']]).toEqual([
      200,
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    ]);
    expect(pb.text.slice(2, 5)).toBe('2.0');
    const json = await server.request('GET', '/openapi/v2', { headers: { accept: 'application/json' } });
    expect([json.status, (json.json as Json)['swagger']]).toEqual([200, '2.0']);
  });

  it.each<[string, string, string]>([
    [
      'another version',
      'apiVersion: v1\nkind: Event\nmetadata:\n  name: c1\n',
      'Incorrect version specified in apply patch. Specified patch version: v1, expected: events.k8s.io/v1',
    ],
    [
      'no version',
      'kind: Event\nmetadata:\n  name: c1\n',
      'Incorrect version specified in apply patch. Specified patch version: , expected: events.k8s.io/v1',
    ],
    [
      'managedFields',
      'apiVersion: events.k8s.io/v1\nkind: Event\nmetadata:\n  name: c1\n  managedFields: []\n',
      'metadata.managedFields must be nil',
    ],
  ])('an apply configuration with %s is a 400', async (_n, config, message) => {
    const res = await server.request('PATCH', evPath(uniqueNs('ac'), 'c1', 'fieldManager=m'), {
      body: config,
      contentType: APPLY,
    });
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: 'BadRequest',
      code: 400,
    });
  });

  it('writes through one Event API keep the managers recorded through the other', async () => {
    const ns = uniqueNs('xv');
    await server.request('POST', corePath(ns, undefined, 'fieldManager=core-writer'), {
      body: newCoreEvent(ns, 'x1'),
    });
    const labelled = await server.request('PATCH', evPath(ns, 'x1', 'fieldManager=labeller'), {
      body: { metadata: { labels: { a: 'b' } } },
      contentType: MERGE,
    });
    const owners = fieldsByManager(body(labelled));
    expect(owners['core-writer/Update']).toMatchObject({
      'f:message': {},
      'f:involvedObject': { 'f:name': {} },
    });
    expect(owners['labeller/Update']).toEqual({ 'f:metadata': { 'f:labels': { 'f:a': {} } } });
  });

  it('an apply through core v1 conflicts with a manager of the same field recorded as events.k8s.io', async () => {
    const ns = uniqueNs('xc');
    await server.request('POST', evPath(ns, undefined, 'fieldManager=creator'), { body: newEvent(ns, 'x2') });
    const config = { ...newCoreEvent(ns, 'x2'), message: 'rewritten' };
    const res = await server.request('PATCH', corePath(ns, 'x2', 'fieldManager=core-applier'), {
      body: JSON.stringify(config),
      contentType: APPLY,
    });
    expect(res.status).toBe(409);
    // Compared as events.k8s.io fields: core v1's message and reason are its note and reason.
    expect((res.json as Json)['message']).toBe(
      'Apply failed with 2 conflicts: conflicts with "creator" using events.k8s.io/v1:\n- .note\n- .reason',
    );
  });

  it('an update that sends managedFields replaces them (how kubectl moves client-side to server-side apply)', async () => {
    const ns = uniqueNs('mf');
    await server.request('POST', evPath(ns, undefined, 'fieldManager=old'), { body: newEvent(ns, 'm1') });
    const rewritten = [
      {
        manager: 'new',
        operation: 'Apply',
        apiVersion: 'events.k8s.io/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:note': {} },
      },
    ];
    const res = await server.request('PATCH', evPath(ns, 'm1', 'fieldManager=kubectl'), {
      body: [{ op: 'replace', path: '/metadata/managedFields', value: rewritten }],
      contentType: 'application/json-patch+json',
    });
    expect(res.status).toBe(200);
    expect(fieldsByManager(body(res))).toEqual({ 'new/Apply': { 'f:note': {} } });
    // A client that sends back what it read leaves them as they are.
    const again = await server.request('PUT', evPath(ns, 'm1', 'fieldManager=putter'), { body: body(res) });
    expect(meta(body(again))['resourceVersion']).toBe(meta(body(res))['resourceVersion']);
  });
});
