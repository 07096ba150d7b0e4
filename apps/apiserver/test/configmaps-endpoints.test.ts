import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, expectStatus, MERGE, names, unique, type Json } from './support/core.js';
import { stores } from './support/fixtures.js';
import { TestPKI } from '@keel/testing';

const cms = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
const eps = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/endpoints${name ? `/${name}` : ''}`;

describe.each(stores)('configmaps and endpoints (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start(redisUrl ? { redisUrl } : {});
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves the authentication ConfigMap the bootstrap step wrote (nothing configured: no keys)', async () => {
    const cm = await expectStatus(
      server.request('GET', cms('platform-system', 'extension-apiserver-authentication')),
      200,
    );
    expect(cm).toMatchObject({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'extension-apiserver-authentication', namespace: 'platform-system' },
    });
    expect(Object.keys((cm['data'] ?? {}) as Json)).toEqual([]);
  });

  it('creates, patches, lists and deletes a ConfigMap', async () => {
    const ns = unique('ns');
    await create(server, cms(ns), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'conf' },
      data: { a: '1' },
    });
    const patched = await expectStatus(
      server.request('PATCH', cms(ns, 'conf'), { body: { data: { b: '2' } }, contentType: MERGE }),
      200,
    );
    expect(patched['data']).toEqual({ a: '1', b: '2' });
    expect(names(await expectStatus(server.request('GET', cms(ns)), 200))).toEqual(['conf']);
    const bad = await server.request('POST', cms(ns), {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad' }, data: { 'no/slash': 'x' } },
    });
    expect(bad.status).toBe(422);
    expect((await server.request('DELETE', cms(ns, 'conf'))).status).toBe(200);
    expect((await server.request('GET', cms(ns, 'conf'))).status).toBe(404);
  });

  it('creates Endpoints with a PUT and updates them', async () => {
    const ns = unique('ns');
    const body = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'svc' },
      subsets: [{ addresses: [{ ip: '10.0.0.5' }], ports: [{ name: 'https', port: 6443 }] }],
    };
    const put = await server.request('PUT', eps(ns, 'svc'), { body });
    expect(put.status).toBe(201);
    expect(put.json).toMatchObject({
      subsets: [{ addresses: [{ ip: '10.0.0.5' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }],
    });
    const table = await server.request('GET', eps(ns), {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(table.json).toMatchObject({
      rows: [{ cells: ['svc', '10.0.0.5:6443', expect.any(String) as unknown] }],
    });
    const bad = await server.request('PUT', eps(ns, 'svc'), {
      body: { ...body, subsets: [{ addresses: [{ ip: 'nope' }], ports: [{ port: 1 }] }] },
    });
    expect(bad.status).toBe(422);
  });
});

describe('the published authentication settings', () => {
  const pki = new TestPKI();
  let server: TestApiServer | undefined;
  afterAll(async () => {
    await server?.stop();
    pki.cleanup();
  });

  it('carry both CAs and the front-proxy headers as JSON arrays, as delegating servers read them', async () => {
    const clientCA = pki.ca('published-client-ca');
    const proxyCA = pki.ca('published-proxy-ca');
    server = await TestApiServer.start({
      args: [
        `--client-ca-file=${clientCA.certFile}`,
        `--requestheader-client-ca-file=${proxyCA.certFile}`,
        '--requestheader-allowed-names=front-proxy',
        '--requestheader-username-headers=X-Remote-User',
        '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      ],
    });
    await server.ready();
    const cm = await expectStatus(
      server.request('GET', cms('platform-system', 'extension-apiserver-authentication')),
      200,
    );
    expect(cm['data']).toEqual({
      'client-ca-file': clientCA.certPem,
      'requestheader-client-ca-file': proxyCA.certPem,
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
      'requestheader-allowed-names': '["front-proxy"]',
    });
  });
});
