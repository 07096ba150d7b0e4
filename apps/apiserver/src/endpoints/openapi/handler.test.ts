import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { coreV1EventView, eventsV1View } from '@keel/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiHandler } from './handler.js';

type Json = Record<string, unknown>;
type Op = { parameters?: { name: string; in: string }[]; [k: string]: unknown };
type Doc = { paths: Record<string, Record<string, Op>>; components?: { schemas: Json }; definitions?: Json };

const PROTOBUF_V3 = 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf';
const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';

let base = '';
let server: Server;
beforeAll(async () => {
  const app = express();
  app.use(openapiHandler([coreV1EventView, eventsV1View]));
  app.use((_req, res) => void res.status(418).type('text/plain').send('fell through'));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function index(): Promise<Record<string, { serverRelativeURL: string }>> {
  const res = await fetch(`${base}/openapi/v3`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  return ((await res.json()) as { paths: Record<string, { serverRelativeURL: string }> }).paths;
}

async function v3(key: string): Promise<Doc> {
  const url = (await index())[key]?.serverRelativeURL ?? '';
  return (await (await fetch(base + url, { headers: { accept: 'application/json' } })).json()) as Doc;
}

/**
 * cli-runtime's supportsQueryParamV3, as kubectl runs it before `create`: the first PATCH
 * operation tagged with the GVK decides, by an inline query parameter or a #/parameters ref.
 */
function kubectlSupportsFieldValidation(doc: Doc, gvk: Json): boolean | 'path not found' {
  for (const item of Object.values(doc.paths)) {
    const op = item['patch'];
    if (!op) continue;
    const ext = op['x-kubernetes-group-version-kind'] as Json | undefined;
    if (
      ext?.['group'] !== gvk['group'] ||
      ext?.['version'] !== gvk['version'] ||
      ext?.['kind'] !== gvk['kind']
    )
      continue;
    return (op.parameters ?? []).some((p) => p.name === 'fieldValidation' && p.in === 'query');
  }
  return 'path not found';
}

describe('/openapi/v3', () => {
  it('indexes every served group version by a content hash of its document', async () => {
    const paths = await index();
    expect(Object.keys(paths)).toEqual(['api/v1', 'apis/events.k8s.io/v1']);
    for (const [key, { serverRelativeURL }] of Object.entries(paths)) {
      expect(serverRelativeURL).toMatch(new RegExp(`^/openapi/v3/${key}\\?hash=[0-9A-F]{128}$`));
      const res = await fetch(base + serverRelativeURL, { headers: { accept: 'application/json' } });
      const body = Buffer.from(await res.arrayBuffer());
      const hash = createHash('sha512').update(body).digest('hex').toUpperCase();
      expect(serverRelativeURL.endsWith(`hash=${hash}`)).toBe(true);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('etag')).toBe(`"${hash}"`);
      expect(res.headers.get('cache-control')).toBe('public, immutable');
      expect(res.headers.get('vary')).toBe('Accept');
      expect(Date.parse(res.headers.get('expires') ?? '')).toBeGreaterThan(Date.now() + 300 * 86400_000);
    }
  });

  it.each([
    ['api/v1', { group: '', version: 'v1', kind: 'Event' }],
    ['apis/events.k8s.io/v1', { group: 'events.k8s.io', version: 'v1', kind: 'Event' }],
  ])('%s declares fieldValidation on the %o PATCH, so kubectl validates server-side', async (key, gvk) => {
    const doc = await v3(key);
    expect(kubectlSupportsFieldValidation(doc, gvk)).toBe(true);
    expect(kubectlSupportsFieldValidation(doc, { ...gvk, kind: 'Lease' })).toBe('path not found');
  });

  const eventsPaths: [string, string, string, string][] = [
    ['/apis/events.k8s.io/v1/events', 'get', 'list', 'listEventsV1EventForAllNamespaces'],
    ['/apis/events.k8s.io/v1/namespaces/{namespace}/events', 'get', 'list', 'listEventsV1NamespacedEvent'],
    ['/apis/events.k8s.io/v1/namespaces/{namespace}/events', 'post', 'post', 'createEventsV1NamespacedEvent'],
    [
      '/apis/events.k8s.io/v1/namespaces/{namespace}/events',
      'delete',
      'deletecollection',
      'deleteEventsV1CollectionNamespacedEvent',
    ],
    [
      '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}',
      'get',
      'get',
      'readEventsV1NamespacedEvent',
    ],
    [
      '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}',
      'put',
      'put',
      'replaceEventsV1NamespacedEvent',
    ],
    [
      '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}',
      'patch',
      'patch',
      'patchEventsV1NamespacedEvent',
    ],
    [
      '/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}',
      'delete',
      'delete',
      'deleteEventsV1NamespacedEvent',
    ],
    ['/apis/events.k8s.io/v1/watch/events', 'get', 'watchlist', 'watchEventsV1EventListForAllNamespaces'],
    [
      '/apis/events.k8s.io/v1/watch/namespaces/{namespace}/events',
      'get',
      'watchlist',
      'watchEventsV1NamespacedEventList',
    ],
    [
      '/apis/events.k8s.io/v1/watch/namespaces/{namespace}/events/{name}',
      'get',
      'watch',
      'watchEventsV1NamespacedEvent',
    ],
  ];
  it.each(eventsPaths)(
    '%s %s is action %s (%s) with the Event GVK',
    async (path, method, action, operationId) => {
      const op = (await v3('apis/events.k8s.io/v1')).paths[path]?.[method];
      expect(op).toMatchObject({
        operationId,
        tags: ['events_v1'],
        'x-kubernetes-action': action,
        'x-kubernetes-group-version-kind': { group: 'events.k8s.io', kind: 'Event', version: 'v1' },
      });
    },
  );

  it('serves exactly the operations of the spec table, with their query parameters', async () => {
    const doc = await v3('apis/events.k8s.io/v1');
    const ops = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((m) => m !== 'parameters')
        .map((m) => `${m} ${p}`),
    );
    expect(ops.sort()).toEqual(
      [...eventsPaths.map(([p, m]) => `${m} ${p}`), 'get /apis/events.k8s.io/v1/'].sort(),
    );
    const item = doc.paths['/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}'] ?? {};
    const names = (m: string) => (item[m]?.parameters ?? []).map((p) => p.name);
    expect(names('patch')).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(names('put')).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(names('delete')).toEqual([
      'dryRun',
      'gracePeriodSeconds',
      'ignoreStoreReadErrorWithClusterBreakingPotential',
      'orphanDependents',
      'propagationPolicy',
    ]);
    expect(
      (item['parameters'] as unknown as { name: string; in: string; required?: boolean }[]).map((p) => [
        p.name,
        p.in,
        p.required,
      ]),
    ).toEqual([
      ['name', 'path', true],
      ['namespace', 'path', true],
      ['pretty', 'query', undefined],
    ]);
    expect(Object.keys((item['patch']?.['requestBody'] as { content: Json }).content)).toEqual([
      'application/apply-patch+yaml',
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
    const list = doc.paths['/apis/events.k8s.io/v1/namespaces/{namespace}/events']?.['get'];
    expect(list?.parameters?.map((p) => p.name)).toEqual([
      'allowWatchBookmarks',
      'continue',
      'fieldSelector',
      'labelSelector',
      'limit',
      'resourceVersion',
      'resourceVersionMatch',
      'sendInitialEvents',
      'timeoutSeconds',
      'watch',
    ]);
  });

  it.each([
    ['api/v1', 'io.k8s.api.core.v1', ['Event', 'EventList', 'EventSeries', 'EventSource', 'ObjectReference']],
    ['apis/events.k8s.io/v1', 'io.k8s.api.events.v1', ['Event', 'EventList', 'EventSeries']],
  ])('%s carries the schemas it references, every $ref resolving', async (key, pkg, kinds) => {
    const doc = await v3(key);
    const schemas = doc.components?.schemas ?? {};
    for (const k of kinds) expect(schemas).toHaveProperty([`${pkg}.${k}`]);
    for (const k of [
      'ObjectMeta',
      'ListMeta',
      'MicroTime',
      'Time',
      'Status',
      'DeleteOptions',
      'Patch',
      'WatchEvent',
    ]) {
      expect(schemas).toHaveProperty([`${meta}.${k}`]);
    }
    expect(schemas).toHaveProperty(['io.k8s.api.core.v1.ObjectReference']);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(refs.length).toBeGreaterThan(20);
    for (const r of refs) expect(Object.keys(schemas)).toContain(r.replace('#/components/schemas/', ''));
    expect(schemas[`${pkg}.Event`]).toMatchObject({
      'x-kubernetes-group-version-kind': [
        { group: key === 'api/v1' ? '' : 'events.k8s.io', kind: 'Event', version: 'v1' },
      ],
    });
  });

  it('wraps references with siblings in allOf, as kube-openapi v3 does', async () => {
    const event = (await v3('apis/events.k8s.io/v1')).components?.schemas['io.k8s.api.events.v1.Event'] as {
      properties: Json;
      required: string[];
    };
    expect(event.required).toEqual(['eventTime']);
    expect(event.properties['metadata']).toMatchObject({
      default: {},
      allOf: [{ $ref: `#/components/schemas/${meta}.ObjectMeta` }],
    });
    expect(event.properties['eventTime']).toMatchObject({
      allOf: [{ $ref: `#/components/schemas/${meta}.MicroTime` }],
    });
    expect(event.properties['note']).toMatchObject({ type: 'string' });
  });

  it('redirects a stale hash, honours If-None-Match and refuses protobuf', async () => {
    const url = (await index())['apis/events.k8s.io/v1']?.serverRelativeURL ?? '';
    const stale = await fetch(`${base}/openapi/v3/apis/events.k8s.io/v1?hash=0123`, { redirect: 'manual' });
    expect(stale.status).toBe(301);
    expect(stale.headers.get('location')).toBe(url);
    const plain = await fetch(`${base}/openapi/v3/apis/events.k8s.io/v1`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBeNull();
    const etag = plain.headers.get('etag') ?? '';
    const cached = await fetch(base + url, { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    const proto = await fetch(base + url, { headers: { accept: PROTOBUF_V3 } });
    expect(proto.status).toBe(406);
    expect(await proto.json()).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
    const idx = await fetch(`${base}/openapi/v3`);
    expect(
      (await fetch(`${base}/openapi/v3`, { headers: { 'if-none-match': idx.headers.get('etag') ?? '' } }))
        .status,
    ).toBe(304);
  });

  it.each([
    ['GET', '/openapi/v3/apis/apps/v1'],
    ['GET', '/openapi/v3/'],
    ['GET', '/openapi/v3/api'],
    ['GET', '/openapi'],
    ['POST', '/openapi/v3'],
    ['PUT', '/openapi/v2'],
  ])('%s %s falls through', async (method, path) => {
    expect((await fetch(base + path, { method })).status).toBe(418);
  });
});
