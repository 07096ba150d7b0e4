import { join } from 'node:path';
import {
  reviewWith,
  TestApiServer,
  TestPKI,
  TestWebhookServer,
  USER_TOKEN,
  writeWebhookConfig,
  type WebhookCall,
  type TestCert,
} from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, statusText, UNAUTHORIZED } from './support/fixtures.js';

// The token webhook (TokenReview) and the Webhook authorizer (SubjectAccessReview) through the
// built daemon, against webhooks on loopback over HTTPS that the connection-config files name.
// The calls each webhook receives are counted to see the caches at work. The store plays no part,
// so only the memory store runs.

const pki = new TestPKI();
let ca: TestCert;
let serving: TestCert;
let clientCA: TestCert;
let apiserverClient: TestCert;
const servers: TestApiServer[] = [];
const hooks: TestWebhookServer[] = [];
const API_AUDIENCE = 'https://keel.test';

beforeAll(() => {
  ca = pki.ca('webhook-ca');
  serving = pki.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1'] });
  clientCA = pki.ca('apiserver-client-ca');
  apiserverClient = pki.client(clientCA, 'keel-apiserver');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(hooks.map((h) => h.stop().catch(() => undefined)));
  pki.cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startServer(args: string[]): Promise<TestApiServer> {
  const server = await TestApiServer.start({ args });
  servers.push(server);
  await server.ready();
  return server;
}

async function startHook(
  name: string,
  answer: (call: WebhookCall) => { status?: number; body: unknown },
): Promise<{ hook: TestWebhookServer; file: string }> {
  const hook = await TestWebhookServer.start(serving, answer, { clientCA: clientCA.certPem });
  hooks.push(hook);
  const file = writeWebhookConfig(
    join(pki.dir, `${name}.json`),
    hook.url(`/${name}`),
    ca.certPem,
    apiserverClient,
  );
  return { hook, file };
}

const specOf = (call: WebhookCall) => (call.body as { spec: Record<string, unknown> }).spec;

describe('token webhook (--authentication-token-webhook-config-file)', () => {
  let server: TestApiServer;
  let hook: TestWebhookServer;
  const TTL_MS = 3000;

  beforeAll(async () => {
    const started = await startHook('authenticate', (call) => {
      const token = specOf(call)['token'];
      if (typeof token === 'string' && token.startsWith('good-'))
        return reviewWith(call, {
          authenticated: true,
          user: { username: 'wanda', uid: 'w1', groups: ['ops'] },
        });
      if (token === 'elsewhere')
        return reviewWith(call, {
          authenticated: true,
          user: { username: 'x' },
          audiences: ['https://other'],
        });
      if (token === 'garbage') return { body: '<html>not json</html>' };
      return reviewWith(call, { authenticated: false, error: 'unknown token' });
    });
    hook = started.hook;
    server = await startServer([
      `--authentication-token-webhook-config-file=${started.file}`,
      '--authentication-token-webhook-version=v1',
      `--authentication-token-webhook-cache-ttl=${TTL_MS}ms`,
      `--api-audiences=${API_AUDIENCE}`,
    ]);
  });

  it('a token the webhook vouches for is its user, asked about with the API audiences and the client certificate', async () => {
    const r = await server.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'good-1' } },
    });
    expect((r.json as { status: unknown }).status).toMatchObject({
      authenticated: true,
      user: { username: 'wanda', uid: 'w1', groups: ['ops', 'system:authenticated'] },
    });
    expect(hook.calls.at(-1)).toEqual({
      path: '/authenticate',
      clientCN: 'keel-apiserver',
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token: 'good-1', audiences: [API_AUDIENCE] },
      },
    });
  });

  it('answers are cached per token for the TTL, then asked again', async () => {
    const before = hook.calls.length;
    expect((await server.request('GET', EVENTS, { token: 'good-2' })).status).toBe(200);
    expect((await server.request('GET', EVENTS, { token: 'good-2' })).status).toBe(200);
    expect((await server.request('GET', EVENTS, { token: 'good-2' })).status).toBe(200);
    expect(hook.calls.length).toBe(before + 1);
    await sleep(TTL_MS + 300);
    expect((await server.request('GET', EVENTS, { token: 'good-2' })).status).toBe(200);
    expect(hook.calls.length).toBe(before + 2);
  });

  it.each([
    ['a token the webhook refuses', 'bad-token'],
    ['a token vouched for other audiences only', 'elsewhere'],
    ['a webhook answering garbage', 'garbage'],
  ])('%s is 401 with the Status body', async (_what, token) => {
    const r = await server.request('GET', EVENTS, { token });
    expect([r.status, r.text]).toEqual([401, UNAUTHORIZED]);
  });

  it('static tokens still work beside it', async () => {
    expect((await server.request('GET', EVENTS, { token: USER_TOKEN })).status).toBe(200);
  });

  it('a webhook that is down gives 401 (never 500) and the server stays up', async () => {
    await hook.stop();
    const r = await server.request('GET', EVENTS, { token: 'good-never-seen' });
    expect([r.status, r.text]).toEqual([401, UNAUTHORIZED]);
    expect((await server.request('GET', '/readyz')).status).toBe(200);
    expect(server.process.stderr).toContain('Failed to make webhook authenticator request');
  });
});

describe('Webhook authorization (--authorization-mode=Webhook)', () => {
  let server: TestApiServer;
  let hook: TestWebhookServer;
  const TTL_MS = 3000;

  beforeAll(async () => {
    const started = await startHook('authorize', (call) => {
      const spec = specOf(call);
      const res = spec['resourceAttributes'] as Record<string, string> | undefined;
      if (res?.['namespace'] === 'allowed') return reviewWith(call, { allowed: true });
      if (res?.['namespace'] === 'denied')
        return reviewWith(call, { allowed: false, denied: true, reason: 'banned here' });
      if (spec['nonResourceAttributes'] !== undefined) return reviewWith(call, { allowed: true });
      return reviewWith(call, { allowed: false, reason: 'no rule matched' });
    });
    hook = started.hook;
    server = await startServer([
      '--authorization-mode=Webhook',
      `--authorization-webhook-config-file=${started.file}`,
      `--authorization-webhook-cache-authorized-ttl=${TTL_MS}ms`,
      '--authorization-webhook-cache-unauthorized-ttl=0s',
    ]);
  });

  const events = (ns: string) => `/apis/events.k8s.io/v1/namespaces/${ns}/events`;
  const forbidden = (ns: string, reason: string) =>
    statusText(
      403,
      'Forbidden',
      `events.events.k8s.io is forbidden: User "alice" cannot list resource "events" in API group "events.k8s.io" in the namespace "${ns}": ${reason}`,
      { group: 'events.k8s.io', kind: 'events' },
    );

  it('allowed is 200, and the webhook got a v1beta1 review with `group`', async () => {
    expect((await server.request('GET', events('allowed'), { token: USER_TOKEN })).status).toBe(200);
    expect(hook.calls.at(-1)?.body).toEqual({
      apiVersion: 'authorization.k8s.io/v1beta1',
      kind: 'SubjectAccessReview',
      spec: {
        resourceAttributes: {
          namespace: 'allowed',
          verb: 'list',
          group: 'events.k8s.io',
          version: 'v1',
          resource: 'events',
        },
        user: 'alice',
        group: ['dev', 'qa', 'system:authenticated'],
        uid: 'uid-alice',
      },
    });
  });

  it('denied is 403 with the webhook reason; no opinion is 403 with its reason too', async () => {
    const denied = await server.request('GET', events('denied'), { token: USER_TOKEN });
    expect([denied.status, denied.text]).toEqual([403, forbidden('denied', 'banned here')]);
    const none = await server.request('GET', events('other'), { token: USER_TOKEN });
    expect([none.status, none.text]).toEqual([403, forbidden('other', 'no rule matched')]);
  });

  it('a non-resource request sends nonResourceAttributes', async () => {
    expect((await server.request('GET', '/version', { token: USER_TOKEN })).status).toBe(200);
    expect((hook.calls.at(-1)?.body as { spec: unknown }).spec).toMatchObject({
      nonResourceAttributes: { path: '/version', verb: 'get' },
    });
  });

  it('system:masters never reaches the webhook', async () => {
    const before = hook.calls.length;
    expect((await server.request('GET', events('other'))).status).toBe(200);
    expect(hook.calls.length).toBe(before);
  });

  it('allowed answers are cached for the authorized TTL; with a zero unauthorized TTL refusals are not', async () => {
    const ns = events('allowed') + '?limit=5'; // same attributes: the query is no part of them
    let before = hook.calls.length;
    await sleep(TTL_MS + 300); // whatever the first test cached has expired
    expect((await server.request('GET', ns, { token: USER_TOKEN })).status).toBe(200);
    expect((await server.request('GET', ns, { token: USER_TOKEN })).status).toBe(200);
    expect(hook.calls.length).toBe(before + 1);
    await sleep(TTL_MS + 300);
    expect((await server.request('GET', ns, { token: USER_TOKEN })).status).toBe(200);
    expect(hook.calls.length).toBe(before + 2);

    before = hook.calls.length;
    await server.request('GET', events('other'), { token: USER_TOKEN });
    await server.request('GET', events('other'), { token: USER_TOKEN });
    expect(hook.calls.length).toBe(before + 2);
  });

  it('a webhook that is down is an authorizer error: the plain-text 500', async () => {
    await hook.stop();
    const path = events('elsewhere');
    const r = await server.request('GET', path, { token: USER_TOKEN });
    expect(r.status).toBe(500);
    expect(r.text).toMatch(new RegExp(`^Internal Server Error: "${path}": .+\\n$`));
    expect((await server.request('GET', '/readyz')).status).toBe(200);
  });
});
