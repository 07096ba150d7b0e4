import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type RequestHandler } from 'express';
import { coreV1EventView, eventsV1View } from '@keel/events';
import { versionInfo } from '@keel/apimachinery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { aggregatedContentType, discoveryHandler } from './handler.js';
import { fromViews } from './groups.js';

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const CLIENT_GO = `${V2},application/json`;
const KUBECTL_132 = `${V2},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`;

/** Serves `handler`, then a marker that shows the request fell through. */
async function serve(handler: RequestHandler): Promise<{ base: string; server: Server }> {
  const app = express();
  app.use(handler);
  app.use((_req, res) => void res.status(418).type('text/plain').send('fell through'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const eventVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const eventResource = {
  name: 'events',
  singularName: 'event',
  namespaced: true,
  kind: 'Event',
  verbs: eventVerbs,
  shortNames: ['ev'],
  storageVersionHash: 'r2yiGXH7wu8=',
};
const eventsGroup = {
  name: 'events.k8s.io',
  versions: [{ groupVersion: 'events.k8s.io/v1', version: 'v1' }],
  preferredVersion: { groupVersion: 'events.k8s.io/v1', version: 'v1' },
};
const discoveredEvents = (group: string) => ({
  resource: 'events',
  responseKind: { group, version: 'v1', kind: 'Event' },
  scope: 'Namespaced',
  singularResource: 'event',
  verbs: eventVerbs,
  shortNames: ['ev'],
});

describe('discoveryHandler over HTTP (Event views)', () => {
  let base = '';
  let server: Server;
  beforeAll(async () => {
    ({ base, server } = await serve(
      discoveryHandler(fromViews([coreV1EventView, eventsV1View]), { serverAddress: '10.0.0.1:6443' }),
    ));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const legacyApi = {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '10.0.0.1:6443' }],
  };
  const coreList = { kind: 'APIResourceList', groupVersion: 'v1', resources: [eventResource] };
  const groupList = { kind: 'APIGroupList', apiVersion: 'v1', groups: [eventsGroup] };
  const groupDoc = { kind: 'APIGroup', apiVersion: 'v1', ...eventsGroup };
  const eventsList = {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'events.k8s.io/v1',
    resources: [eventResource],
  };
  const aggApi = {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [
      {
        metadata: { creationTimestamp: null },
        versions: [{ version: 'v1', resources: [discoveredEvents('')], freshness: 'Current' }],
      },
    ],
  };
  const aggApis = {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [
      {
        metadata: { name: 'events.k8s.io', creationTimestamp: null },
        versions: [{ version: 'v1', resources: [discoveredEvents('events.k8s.io')], freshness: 'Current' }],
      },
    ],
  };

  it.each([
    ['/api', undefined, 'application/json', legacyApi],
    ['/api/', 'application/json', 'application/json', legacyApi],
    ['/api', CLIENT_GO, aggregatedContentType, aggApi],
    ['/api/', KUBECTL_132, aggregatedContentType, aggApi],
    ['/api/v1', CLIENT_GO, 'application/json', coreList],
    ['/api/v1/', '*/*', 'application/json', coreList],
    ['/apis', 'application/json', 'application/json', groupList],
    ['/apis', CLIENT_GO, aggregatedContentType, aggApis],
    ['/apis', KUBECTL_132, aggregatedContentType, aggApis],
    ['/apis', `application/json,${V2}`, 'application/json', groupList],
    ['/apis', `application/json;q=0.5,${V2}`, aggregatedContentType, aggApis],
    // As upstream, only the exact /apis offers the aggregated form.
    ['/apis/', CLIENT_GO, 'application/json', groupList],
    ['/apis/events.k8s.io', CLIENT_GO, 'application/json', groupDoc],
    ['/apis/events.k8s.io/', 'application/*', 'application/json', groupDoc],
    ['/apis/events.k8s.io/v1', CLIENT_GO, 'application/json', eventsList],
    ['/apis/events.k8s.io/v1/', undefined, 'application/json', eventsList],
  ])('GET %s (Accept %s) is %s', async (path, accept, contentType, body) => {
    const res = await fetch(base + path, { headers: accept ? { accept } : {} });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(contentType);
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(body);
  });

  it('answers a YAML Accept with the YAML document, as resources are answered', async () => {
    const res = await fetch(`${base}/apis`, { headers: { accept: 'application/yaml' } });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/yaml']);
    expect(parseYaml(await res.text())).toEqual(groupList);
  });

  it.each(['/version', '/version/'])('GET %s is versionInfo(), always indented', async (path) => {
    const res = await fetch(`${base}${path}?pretty=false`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe(JSON.stringify(versionInfo(), null, 2));
  });

  it.each([
    ['/api', `application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList`],
    ['/apis', `${PROTOBUF};as=Table;g=meta.k8s.io;v=v1`],
    ['/apis/events.k8s.io/v1', V2],
    // /apis and /apis/<group> are not go-restful routes: only their handler negotiates.
    ['/apis', 'text/html'],
    ['/apis/events.k8s.io', 'text/html'],
  ])('GET %s with only Accept %s is 406 NotAcceptable', async (path, accept) => {
    const res = await fetch(base + path, { headers: { accept } });
    expect(res.status).toBe(406);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `only the following media types are accepted: application/json, application/yaml, ${PROTOBUF}`,
      reason: 'NotAcceptable',
      code: 406,
    });
  });

  it.each([
    ['/api', 'text/html'],
    ['/api/v1', 'application/*'],
    ['/apis/events.k8s.io/v1', 'Application/JSON'],
    ['/version', PROTOBUF.replace('vnd', 'x-vnd')],
  ])("GET %s with only Accept %s is go-restful's 406", async (path, accept) => {
    const res = await fetch(base + path, { headers: { accept } });
    expect([res.status, res.headers.get('content-type')]).toEqual([406, 'application/json']);
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: '406: Not Acceptable',
      reason: 'NotAcceptable',
      details: {},
      code: 406,
    });
  });

  it.each([
    ['GET', '/apis/events.k8s.io/v2'],
    ['GET', '/apis/apps'],
    ['GET', '/apis/apps/v1'],
    ['GET', '/api/v2'],
    ['GET', '/apis/events.k8s.io/v1/events'],
    ['GET', '/api/v1/namespaces/default/events'],
    ['GET', '/apis//'],
    ['GET', '/healthz'],
    ['POST', '/api'],
    ['DELETE', '/apis'],
  ])('%s %s falls through', async (method, path) => {
    const res = await fetch(base + path, { method });
    expect(res.status).toBe(418);
    expect(await res.text()).toBe('fell through');
  });

  it('aggregated discovery carries an ETag and answers If-None-Match with 304', async () => {
    const first = await fetch(`${base}/apis`, { headers: { accept: CLIENT_GO } });
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    expect(first.headers.get('vary')).toBe('Accept');
    expect(first.headers.get('cache-control')).toBe('public');
    const again = await fetch(`${base}/apis`, { headers: { accept: CLIENT_GO, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const api = await fetch(`${base}/api`, { headers: { accept: CLIENT_GO } });
    expect(api.headers.get('etag')).not.toBe(etag);
  });

  it.each([
    ['?pretty=true', undefined, true],
    ['', 'curl/8.0', true],
    ['?pretty=0', 'curl/8.0', false],
    ['', 'kubectl/v1.32.4', false],
  ])('pretty printing %s (User-Agent %s) is %s', async (query, ua, pretty) => {
    const res = await fetch(`${base}/apis${query}`, { headers: ua ? { 'user-agent': ua } : {} });
    const text = await res.text();
    expect(text).toBe(pretty ? JSON.stringify(groupList, null, 2) : JSON.stringify(groupList) + '\n');
  });
});
