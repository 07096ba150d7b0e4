import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  apiServerEntry,
  reviewWith,
  runNode,
  signToken,
  startRedisServer,
  TestApiServer,
  TestConnectProxy,
  TestOIDCIssuer,
  TestOtlpCollector,
  TestPKI,
  TestWebhookServer,
  writeWebhookConfig,
  type RedisServer,
  type TestCert,
} from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, createConfig, eventually } from './support/admission-webhooks.js';
import { AuditReceiver } from './support/audit-receiver.js';
import { EVENTS } from './support/fixtures.js';

// --egress-selector-config-file end to end: real HTTP CONNECT proxies on loopback (over TCP with
// a client certificate, over a Unix socket, and one that refuses), and the servers the API server
// reaches through them: token webhook, OIDC issuer, audit webhook, an admission webhook, the OTLP
// collector (controlplane) and Redis (etcd). Each proxy records the tunnels it opened, so a test
// sees which connections went through it.

const pki = new TestPKI();
const dir = mkdtempSync(join(tmpdir(), 'keel-egress-'));
const servers: TestApiServer[] = [];
const closers: (() => Promise<void>)[] = [];
let ca: TestCert;
let serving: TestCert;

beforeAll(() => {
  ca = pki.ca('egress-ca');
  serving = pki.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1'] });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const close of closers) await close().catch(() => undefined);
  pki.cleanup();
});

function egressFile(name: string, selections: unknown[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'apiserver.k8s.io/v1beta1',
      kind: 'EgressSelectorConfiguration',
      egressSelections: selections,
    }),
  );
  return file;
}

const httpConnect = (name: string, transport: unknown) => ({
  name,
  connection: { proxyProtocol: 'HTTPConnect', transport },
});

async function start(
  args: string[],
  opts: { redisUrl?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<TestApiServer> {
  const server = await TestApiServer.start({ args, ...opts });
  servers.push(server);
  await server.ready();
  return server;
}

describe('controlplane through an https proxy that checks the client certificate', () => {
  let proxy: TestConnectProxy;
  let tokenHook: TestWebhookServer;
  let issuer: TestOIDCIssuer;
  let audit: AuditReceiver;
  let collector: TestOtlpCollector;
  let server: TestApiServer;
  let oidcToken: string;

  beforeAll(async () => {
    const proxyClient = pki.leaf(ca, { cn: 'keel-egress', usage: 'client' });
    proxy = await TestConnectProxy.start({
      tls: { cert: serving.certPem, key: serving.keyPem, clientCA: ca.certPem },
    });
    tokenHook = await TestWebhookServer.start(serving, (call) =>
      reviewWith(call, {
        authenticated: true,
        user: { username: 'through-proxy', groups: ['system:masters'] },
      }),
    );
    issuer = await TestOIDCIssuer.start(serving);
    audit = await AuditReceiver.start(pki);
    collector = await TestOtlpCollector.start();
    closers.push(
      () => proxy.close(),
      () => tokenHook.stop(),
      () => issuer.stop(),
      () => audit.close(),
      () => collector.stop(),
    );
    const key = issuer.addKey('RS256');
    const now = Math.floor(Date.now() / 1000);
    oidcToken = signToken({ iss: issuer.url, aud: 'keel', sub: 'oidc-user', iat: now, exp: now + 600 }, key);
    const tracing = join(dir, 'tracing.json');
    writeFileSync(
      tracing,
      JSON.stringify({
        apiVersion: 'apiserver.config.k8s.io/v1',
        kind: 'TracingConfiguration',
        endpoint: collector.endpoint,
        samplingRatePerMillion: 1_000_000,
      }),
    );
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const egress = egressFile('controlplane', [
      httpConnect('controlplane', {
        tcp: {
          url: proxy.address,
          tlsConfig: {
            caBundle: ca.certFile,
            clientCert: proxyClient.certFile,
            clientKey: proxyClient.keyFile,
          },
        },
      }),
    ]);
    server = await start(
      [
        `--egress-selector-config-file=${egress}`,
        `--authentication-token-webhook-config-file=${writeWebhookConfig(join(dir, 'authn.json'), tokenHook.url('/authn'), ca.certPem)}`,
        `--oidc-issuer-url=${issuer.url}`,
        '--oidc-client-id=keel',
        `--oidc-ca-file=${ca.certFile}`,
        `--audit-policy-file=${policy}`,
        `--audit-webhook-config-file=${audit.kubeconfig(pki.dir)}`,
        '--audit-webhook-batch-max-wait=50ms',
        `--tracing-config-file=${tracing}`,
      ],
      { env: { ...process.env, OTEL_BSP_SCHEDULE_DELAY: '200' } },
    );
  });

  it('calls the token webhook through the proxy, presenting the proxy client certificate to the proxy', async () => {
    const r = await server.request('GET', EVENTS, { token: 'any-webhook-token' });
    expect(r.status).toBe(200);
    expect(tokenHook.calls).toHaveLength(1);
    expect(proxy.tunnels).toContainEqual({ target: `127.0.0.1:${tokenHook.port}`, clientCN: 'keel-egress' });
  });

  it('reaches the OIDC issuer through the proxy', async () => {
    const r = await eventually(
      () => server.request('GET', EVENTS, { token: oidcToken }),
      (res) => res.status === 200,
      20_000,
    );
    expect(r.status).toBe(200);
    expect(proxy.tunnelsTo(new URL(issuer.url).host)).toBeGreaterThan(0);
  });

  it('sends audit events and spans through the proxy', async () => {
    const r = await server.request('GET', EVENTS);
    const id = String(r.headers['audit-id']);
    await eventually(
      async () => audit.batches.flatMap((b) => b.list.items).some((e) => e.auditID === id),
      (found) => found,
      10_000,
    );
    await collector.waitFor((s) => s.attributes['audit-id'] === id);
    expect(proxy.tunnelsTo(new URL(audit.url).host)).toBeGreaterThan(0);
    expect(proxy.tunnelsTo(collector.endpoint)).toBeGreaterThan(0);
  });

  it('calls an admission webhook named by URL through the proxy', async () => {
    const hook = await TestWebhookServer.start(serving, (call) =>
      answer(call, { allowed: false, status: { message: 'seen through the proxy', code: 403 } }),
    );
    closers.push(() => hook.stop());
    await createConfig(server, 'Validating', 'egress-check', [
      {
        name: 'egress.keel.test',
        clientConfig: { url: hook.url('/validate'), caBundle: Buffer.from(ca.certPem).toString('base64') },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        objectSelector: { matchLabels: { egress: 'check' } },
      },
    ]);
    const denied = await eventually(
      () =>
        server.request('POST', '/api/v1/namespaces/default/configmaps', {
          body: { metadata: { generateName: 'egress-', labels: { egress: 'check' } } },
        }),
      (res) => res.status === 403,
    );
    expect(denied.text).toContain('seen through the proxy');
    expect(proxy.tunnelsTo(`127.0.0.1:${hook.port}`)).toBeGreaterThan(0);
  });
});

describe('etcd through a proxy on a Unix socket', () => {
  let redis: RedisServer;
  let proxy: TestConnectProxy;

  beforeAll(async () => {
    redis = await startRedisServer();
    proxy = await TestConnectProxy.start({ udsPath: join(dir, 'store-proxy.sock') });
    closers.push(
      () => proxy.close(),
      () => redis.close(),
    );
  });

  it('keeps the store in Redis reached only through the proxy', async () => {
    const egress = egressFile('etcd', [httpConnect('etcd', { uds: { udsName: proxy.address } })]);
    const server = await start([`--egress-selector-config-file=${egress}`], { redisUrl: redis.url });
    const created = await server.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'through-the-proxy' }, data: { a: 'b' } },
    });
    expect(created.status).toBe(201);
    const read = await server.request('GET', '/api/v1/namespaces/default/configmaps/through-the-proxy');
    expect(read.status).toBe(200);
    const target = new URL(redis.url).host;
    // The command connection and the watch hub's blocking one.
    expect(proxy.tunnelsTo(target)).toBeGreaterThanOrEqual(2);
    expect(proxy.tunnels.every((t) => t.target === target)).toBe(true);
  });
});

describe('a proxy that refuses', () => {
  it('fails the webhook call instead of going around the proxy', async () => {
    const proxy = await TestConnectProxy.start();
    proxy.refuse = true;
    const hook = await TestWebhookServer.start(serving, (call) =>
      reviewWith(call, { authenticated: true, user: { username: 'should-not-happen' } }),
    );
    closers.push(
      () => proxy.close(),
      () => hook.stop(),
    );
    const egress = egressFile('refusing', [httpConnect('controlplane', { tcp: { url: proxy.address } })]);
    const server = await start([
      `--egress-selector-config-file=${egress}`,
      `--authentication-token-webhook-config-file=${writeWebhookConfig(join(dir, 'authn-refused.json'), hook.url('/authn'), ca.certPem)}`,
    ]);
    const r = await server.request('GET', EVENTS, { token: 'any-webhook-token' });
    expect(r.status).toBe(401);
    expect(hook.calls).toHaveLength(0);
    expect(proxy.tunnelsTo(`127.0.0.1:${hook.port}`)).toBeGreaterThan(0);
  });
});

describe('a bad --egress-selector-config-file', () => {
  it.each([
    [
      'the gRPC tunnel protocol',
      [
        {
          name: 'cluster',
          connection: { proxyProtocol: 'GRPC', transport: { uds: { udsName: '/run/konnectivity.sock' } } },
        },
      ],
      'egressSelections[0].connection.proxyProtocol: Unsupported value: "GRPC": Keel supports "Direct" and "HTTPConnect" (run the konnectivity server with --mode=http-connect)',
    ],
    [
      'an unknown network',
      [{ name: 'nodes', connection: { proxyProtocol: 'Direct' } }],
      'egressSelections[0].name: Unsupported value: "nodes": supported values: "cluster", "controlplane", "etcd"',
    ],
  ])('refuses %s at start-up with one line naming the file and field', async (_what, selections, problem) => {
    const file = egressFile(`bad-${Math.random().toString(36).slice(2)}`, selections);
    const r = await runNode(apiServerEntry, [`--egress-selector-config-file=${file}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error: egress selector config file ${file}: ${problem}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
