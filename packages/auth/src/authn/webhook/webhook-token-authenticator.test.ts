import { join } from 'node:path';
import { reviewWith, TestPKI, TestWebhookServer, writeWebhookConfig, type WebhookCall } from '@keel/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { webhookEndpoint } from '../../webhook/endpoint.js';
import type { AuthenticationResult, TokenAuthenticator } from '../types.js';
import { tokenReviewRequest, tokenReviewVerdict } from './token-review.js';
import { CachedTokenAuthenticator, WebhookTokenAuthenticator } from './webhook-token-authenticator.js';

// The TokenReview client: what it sends and how it reads answers, against a real HTTPS webhook
// configured by a connection-config file, as --authentication-token-webhook-config-file is.

const FAST = { backoff: { initialMs: 1, factor: 1, jitter: 0, steps: 3 } };
const pki = new TestPKI();
const ca = pki.ca('webhook-ca');
const serving = pki.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1'] });
const clientCA = pki.ca('apiserver-client-ca');
const apiserverCert = pki.client(clientCA, 'keel-apiserver');
afterAll(() => pki.cleanup());

describe('tokenReviewRequest / tokenReviewVerdict', () => {
  it('sends the token, and the audiences when there are some, in the version asked for', () => {
    expect(tokenReviewRequest('abc')).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: 'abc' },
    });
    expect(tokenReviewRequest('abc', 'v1beta1', ['https://keel'])).toEqual({
      apiVersion: 'authentication.k8s.io/v1beta1',
      kind: 'TokenReview',
      spec: { token: 'abc', audiences: ['https://keel'] },
    });
  });

  it('reads an authenticated answer as the user it names, filling what it leaves out', () => {
    const status = {
      authenticated: true,
      user: { username: 'jane', uid: '42', groups: ['dev'], extra: { s: ['a'] } },
    };
    expect(tokenReviewVerdict({ status })).toEqual({
      user: { name: 'jane', uid: '42', groups: ['dev'], extra: { s: ['a'] } },
    });
    expect(tokenReviewVerdict({ status: { authenticated: true, user: { username: 'bob' } } })).toEqual({
      user: { name: 'bob', uid: '', groups: [], extra: {} },
    });
  });

  it('reads a refusal as no user and a refusal with an error as that error', () => {
    expect(tokenReviewVerdict({ status: { user: {} } })).toBeUndefined();
    expect(tokenReviewVerdict({ status: { authenticated: false, error: 'token expired' } })).toEqual({
      error: 'token expired',
    });
  });

  it('checks the audiences: the answered ones, else the implicit ones, must meet the wanted ones', () => {
    const user = { authenticated: true, user: { username: 'x' } };
    const check = { wanted: ['api'], implicit: ['api'] };
    expect(tokenReviewVerdict({ status: { ...user, audiences: ['api', 'other'] } }, check)).toMatchObject({
      user: {},
    });
    expect(tokenReviewVerdict({ status: user }, check)).toMatchObject({ user: {} });
    expect(tokenReviewVerdict({ status: { ...user, audiences: ['other'] } }, check)).toBeUndefined();
  });
});

class CountingTokens implements TokenAuthenticator {
  calls = 0;
  constructor(private readonly answer: (token: string) => AuthenticationResult) {}
  async authenticateToken(token: string): Promise<AuthenticationResult> {
    this.calls++;
    await new Promise((r) => setTimeout(r, 5));
    return this.answer(token);
  }
}

describe('CachedTokenAuthenticator', () => {
  const user = { user: { name: 'jane', uid: '', groups: [], extra: {} } };

  it('keeps users and plain refusals for the ttl, then asks again', async () => {
    let now = 1_000_000; // lru-cache reads a start time of 0 as "never set"
    const inner = new CountingTokens((t) => (t === 'good' ? user : undefined));
    const cached = new CachedTokenAuthenticator(inner, 10_000, () => now);
    expect(await cached.authenticateToken('good')).toEqual(user);
    expect(await cached.authenticateToken('bad')).toBeUndefined();
    now = 1_010_000;
    expect(await cached.authenticateToken('good')).toEqual(user);
    expect(await cached.authenticateToken('bad')).toBeUndefined();
    expect(inner.calls).toBe(2);
    now = 1_010_001;
    await cached.authenticateToken('good');
    await cached.authenticateToken('bad');
    expect(inner.calls).toBe(4);
  });

  it('never keeps failures', async () => {
    const inner = new CountingTokens(() => ({ error: 'connection refused' }));
    const cached = new CachedTokenAuthenticator(inner, 10_000);
    expect(await cached.authenticateToken('t')).toEqual({ error: 'connection refused' });
    expect(await cached.authenticateToken('t')).toEqual({ error: 'connection refused' });
    expect(inner.calls).toBe(2);
  });

  it('asks once for concurrent requests with the same token', async () => {
    const inner = new CountingTokens(() => user);
    const cached = new CachedTokenAuthenticator(inner, 0);
    const results = await Promise.all([1, 2, 3].map(() => cached.authenticateToken('t')));
    expect(results).toEqual([user, user, user]);
    expect(inner.calls).toBe(1);
    await cached.authenticateToken('t'); // ttl 0: nothing kept once the review is over
    expect(inner.calls).toBe(2);
  });
});

describe('WebhookTokenAuthenticator (over HTTPS, from a connection-config)', () => {
  let hook: TestWebhookServer | undefined;
  afterEach(async () => {
    await hook?.stop();
    hook = undefined;
  });

  const start = async (answer: (call: WebhookCall) => { status?: number; body: unknown }) => {
    hook = await TestWebhookServer.start(serving, answer, { clientCA: clientCA.certPem });
    const file = writeWebhookConfig(
      join(pki.dir, 'authn-hook.json'),
      hook.url('/authenticate'),
      ca.certPem,
      apiserverCert,
    );
    return webhookEndpoint('authentication-token-webhook-config-file', file);
  };

  it('POSTs the review to the exact URL, presenting the client certificate, and reads the answer', async () => {
    const endpoint = await start((call) =>
      reviewWith(call, { authenticated: true, user: { username: 'jane', groups: ['dev'] } }),
    );
    const authn = new WebhookTokenAuthenticator(endpoint, {
      version: 'v1beta1',
      audiences: ['api'],
      ...FAST,
    });
    expect(await authn.authenticateToken('secret')).toEqual({
      user: { name: 'jane', uid: '', groups: ['dev'], extra: {} },
    });
    expect(hook?.calls).toEqual([
      {
        path: '/authenticate',
        clientCN: 'keel-apiserver',
        body: tokenReviewRequest('secret', 'v1beta1', ['api']),
      },
    ]);
  });

  it('refuses a user vouched for other audiences only', async () => {
    const endpoint = await start((call) =>
      reviewWith(call, { authenticated: true, user: { username: 'x' }, audiences: ['nope'] }),
    );
    const authn = new WebhookTokenAuthenticator(endpoint, { audiences: ['api'], ...FAST });
    expect(await authn.authenticateToken('t')).toBeUndefined();
  });

  it('retries an InternalError and gives up on a Forbidden at once', async () => {
    let n = 0;
    const endpoint = await start((call) =>
      n++ === 0
        ? { status: 500, body: '' }
        : reviewWith(call, { authenticated: true, user: { username: 'x' } }),
    );
    const authn = new WebhookTokenAuthenticator(endpoint, FAST);
    expect(await authn.authenticateToken('t')).toMatchObject({ user: { name: 'x' } });
    expect(hook?.calls).toHaveLength(2);
    const forbidden = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: 'no',
      reason: 'Forbidden',
      code: 403,
    };
    hook?.respond(() => ({ status: 403, body: forbidden }));
    expect(await authn.authenticateToken('u')).toEqual({ error: 'no' });
    expect(hook?.calls).toHaveLength(3);
  });

  it.each([
    ['not JSON', '<html>oops</html>', 'the response is not JSON'],
    ['JSON that is no review', { hello: 'world' }, "Object 'Kind' is missing"],
    ['another kind', { apiVersion: 'v1', kind: 'Status' }, 'no kind "Status" is registered for version "v1"'],
  ])('an answer that is %s is a failure', async (_what, body, message) => {
    const endpoint = await start(() => ({ body }));
    const authn = new WebhookTokenAuthenticator(endpoint, FAST);
    const r = (await authn.authenticateToken('t')) as { error: string };
    expect(r.error).toContain(message);
  });

  it('a webhook that is down is a failure, not a crash', async () => {
    const endpoint = await start(() => ({ body: {} }));
    await hook?.stop();
    hook = undefined;
    const authn = new WebhookTokenAuthenticator(endpoint, FAST);
    expect(await authn.authenticateToken('t')).toMatchObject({
      error: expect.stringContaining('ECONNREFUSED') as unknown,
    });
  });
});
