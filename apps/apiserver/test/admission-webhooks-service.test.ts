import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  TestApiServer,
  TestConnectProxy,
  TestPKI,
  TestWebhookServer,
  type TestCert,
  type WebhookCall,
} from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podBody, podPath, unique, type Json } from './support/core.js';
import { answer, createConfig, eventually, podWebhook } from './support/admission-webhooks.js';

// Admission webhooks named by a Service (clientConfig.service), called where upstream's service
// resolvers send them: the Service's cluster IP by default, one of its endpoints with
// --enable-aggregator-routing. The webhooks run on loopback; the cluster IP range is a loopback
// range so that a cluster IP is an address this machine answers on. Endpoints may not be loopback
// addresses, so the endpoint test names a documentation address (192.0.2.10) that only the
// `cluster` egress proxy resolves, to the webhook on loopback: as a konnectivity agent would.

const NS = 'webhooks';
const POD_IP = '192.0.2.10';
const pki = new TestPKI();
let ca: TestCert;
const servers: TestApiServer[] = [];
const hooks: TestWebhookServer[] = [];
const proxies: TestConnectProxy[] = [];

beforeAll(() => {
  ca = pki.ca('service-webhook-ca');
});

afterAll(async () => {
  await Promise.all([
    ...servers.map((s) => s.stop()),
    ...hooks.map((h) => h.stop()),
    ...proxies.map((p) => p.close()),
  ]);
  pki.cleanup();
});

async function startServer(args: string[]): Promise<TestApiServer> {
  const server = await TestApiServer.start({ args: ['--service-cluster-ip-range=127.100.0.0/24', ...args] });
  servers.push(server);
  await server.ready();
  const res = await server.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
  });
  expect(res.status, res.text).toBe(201);
  return server;
}

/** A webhook whose certificate names `<service>.webhooks.svc`, as a client dialing the Service checks. */
async function startHook(service: string, host = '127.0.0.1'): Promise<TestWebhookServer> {
  const serving = pki.leaf(ca, { cn: service, usage: 'server', hosts: [`${service}.${NS}.svc`] });
  const hook = await TestWebhookServer.start(
    serving,
    (call: WebhookCall) => answer(call, { allowed: false, status: { code: 403, message: 'no pods today' } }),
    { host },
  );
  hooks.push(hook);
  return hook;
}

async function create(server: TestApiServer, path: string, body: Json): Promise<Json> {
  const res = await server.request('POST', path, { body });
  expect(res.status, res.text).toBe(201);
  return res.json as Json;
}

const service = (name: string, spec: Json): Json => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: NS },
  spec,
});

/** Configures a validating webhook on `service`, then creates pods until it is in effect. */
async function podCreateThrough(server: TestApiServer, svc: string, port?: number) {
  const id = unique('svc-hook');
  await createConfig(server, 'Validating', id, [
    podWebhook(`${svc}.keel.test`, '', ca.certPem, id, {
      clientConfig: {
        service: { namespace: NS, name: svc, path: '/validate', ...(port ? { port } : {}) },
        caBundle: Buffer.from(ca.certPem).toString('base64'),
      },
    }),
  ]);
  return eventually(
    () => server.request('POST', podPath(NS), { body: podBody(unique('p'), {}, { labels: { test: id } }) }),
    (r) => r.status !== 201,
  );
}

describe('webhooks named by a Service, with --enable-aggregator-routing (endpoints)', () => {
  let server: TestApiServer;
  let hook: TestWebhookServer;
  let proxy: TestConnectProxy;
  beforeAll(async () => {
    hook = await startHook('hook');
    proxy = await TestConnectProxy.start({
      route: (host, port) =>
        host === POD_IP && port === 8443 ? { host: '127.0.0.1', port: hook.port } : { host, port },
    });
    proxies.push(proxy);
    const egress = join(mkdtempSync(join(tmpdir(), 'keel-svc-hook-')), 'egress.json');
    writeFileSync(
      egress,
      JSON.stringify({
        apiVersion: 'apiserver.k8s.io/v1beta1',
        kind: 'EgressSelectorConfiguration',
        egressSelections: [
          {
            name: 'cluster',
            connection: { proxyProtocol: 'HTTPConnect', transport: { tcp: { url: proxy.address } } },
          },
        ],
      }),
    );
    server = await startServer([
      '--enable-aggregator-routing=true',
      `--egress-selector-config-file=${egress}`,
    ]);
  });

  it('calls an endpoint of the port through the cluster egress, by the name its certificate carries', async () => {
    await create(
      server,
      `/api/v1/namespaces/${NS}/services`,
      service('hook', { ports: [{ name: 'https', port: 443, targetPort: 8443 }] }),
    );
    await create(server, `/api/v1/namespaces/${NS}/endpoints`, {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'hook', namespace: NS },
      subsets: [{ addresses: [{ ip: POD_IP }], ports: [{ name: 'https', port: 8443 }] }],
    });
    const res = await podCreateThrough(server, 'hook');
    expect(res.status, res.text).toBe(403);
    expect((res.json as Json)['message']).toContain('no pods today');
    expect(hook.calls.at(-1)?.path).toBe('/validate?timeout=10s');
    expect(proxy.tunnelsTo(`${POD_IP}:8443`)).toBeGreaterThan(0);
  });

  it('fails a call to a Service without endpoints with upstream words', async () => {
    await create(server, `/api/v1/namespaces/${NS}/services`, service('empty', { ports: [{ port: 443 }] }));
    const res = await podCreateThrough(server, 'empty');
    expect(res.status).toBe(500);
    expect((res.json as Json)['message']).toBe(
      'Internal error occurred: failed calling webhook "empty.keel.test": failed to call webhook: Post "https://empty.webhooks.svc:443/validate?timeout=10s": endpoints "empty" not found',
    );
  });

  it('fails a call to a port the Service does not have', async () => {
    await create(server, `/api/v1/namespaces/${NS}/services`, service('ported', { ports: [{ port: 443 }] }));
    const res = await podCreateThrough(server, 'ported', 8443);
    expect(res.status).toBe(500);
    expect((res.json as Json)['message']).toContain(
      'Post "https://ported.webhooks.svc:8443/validate?timeout=10s": no service port 8443 found for service "ported"',
    );
  });
});

describe('webhooks named by a Service, by default (cluster IP)', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startServer([]);
  });

  it('calls the cluster IP and port of the Service', async () => {
    const hook = await startHook('direct', '127.100.0.9');
    await create(
      server,
      `/api/v1/namespaces/${NS}/services`,
      service('direct', { clusterIP: '127.100.0.9', ports: [{ port: hook.port }] }),
    );
    const res = await podCreateThrough(server, 'direct', hook.port);
    expect(res.status, res.text).toBe(403);
    expect(hook.calls.length).toBeGreaterThan(0);
  });

  it('refuses to route to a headless Service', async () => {
    await create(
      server,
      `/api/v1/namespaces/${NS}/services`,
      service('headless', { clusterIP: 'None', ports: [{ port: 443 }] }),
    );
    const res = await podCreateThrough(server, 'headless');
    expect(res.status).toBe(500);
    expect((res.json as Json)['message']).toContain(
      'Post "https://headless.webhooks.svc:443/validate?timeout=10s": cannot route to service with ClusterIP "None"',
    );
  });
});
