import { generateKeyPairSync } from 'node:crypto';
import {
  freePort,
  signToken,
  TestApiServer,
  TestOIDCIssuer,
  TestPKI,
  type IssuerKey,
  type TestCert,
} from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from './support/core.js';
import { EVENTS, UNAUTHORIZED } from './support/fixtures.js';

// OIDC through the built daemon: a provider on loopback over HTTPS under a test CA, tokens it
// signs, and the server's own answer (the request, and the TokenReview of the token). The store
// plays no part in authentication, so only the memory store runs.

const TOKEN_REVIEWS = '/apis/authentication.k8s.io/v1/tokenreviews';
const pki = new TestPKI();
let ca: TestCert;
let serving: TestCert;
const servers: TestApiServer[] = [];
const issuers: TestOIDCIssuer[] = [];

beforeAll(() => {
  ca = pki.ca('oidc-ca');
  serving = pki.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1'] });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(issuers.map((i) => i.stop()));
  pki.cleanup();
});

const now = () => Math.floor(Date.now() / 1000);

async function startServer(issuerURL: string, extra: string[] = []): Promise<TestApiServer> {
  const server = await TestApiServer.start({
    args: [
      `--oidc-issuer-url=${issuerURL}`,
      '--oidc-client-id=keel',
      `--oidc-ca-file=${ca.certFile}`,
      '--oidc-username-claim=email',
      '--oidc-groups-claim=groups',
      '--oidc-groups-prefix=oidc:',
      '--oidc-required-claim=hd=example.com',
      ...extra,
    ],
  });
  servers.push(server);
  await server.ready();
  return server;
}

/** Asks until `token` is accepted (the provider is found in the background). */
async function untilAccepted(server: TestApiServer, token: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await server.request('GET', EVENTS, { token });
    if (r.status === 200) return;
    if (Date.now() > deadline) throw new Error(`token still refused: ${r.status} ${r.text}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

describe('OIDC tokens (RS256 only)', () => {
  let server: TestApiServer;
  let issuer: TestOIDCIssuer;
  let key: IssuerKey;
  const claims = (extra: Record<string, unknown> = {}) => ({
    iss: issuer.url,
    aud: ['keel', 'other-client'],
    sub: '1234',
    email: 'alice@example.com',
    email_verified: true,
    groups: ['dev', 'ops'],
    hd: 'example.com',
    iat: now(),
    exp: now() + 600,
    ...extra,
  });

  beforeAll(async () => {
    issuer = await TestOIDCIssuer.start(serving);
    issuers.push(issuer);
    key = issuer.addKey('RS256');
    server = await startServer(issuer.url);
    await untilAccepted(server, signToken(claims(), key));
  });

  it('a good token is the user of its email claim (no prefix) with prefixed groups', async () => {
    const token = signToken(claims(), key);
    const review = await server.request('POST', TOKEN_REVIEWS, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
    });
    expect((review.json as Json)['status']).toEqual({
      authenticated: true,
      user: { username: 'alice@example.com', groups: ['oidc:dev', 'oidc:ops', 'system:authenticated'] },
    });
    expect((await server.request('GET', EVENTS, { token })).status).toBe(200);
  });

  it.each<[string, () => string]>([
    ['an expired token', () => signToken(claims({ exp: now() - 10 }), key)],
    ['a token for another audience', () => signToken(claims({ aud: 'someone-else' }), key)],
    ['a token of another issuer', () => signToken(claims({ iss: 'https://elsewhere.example' }), key)],
    ['a token signed by an unknown key', () => signToken(claims(), issuer.addKey('RS256', false))],
    [
      'a token with a tampered payload',
      () => {
        const [h, , s] = signToken(claims(), key).split('.');
        const forged = Buffer.from(JSON.stringify(claims({ groups: ['system:masters'] }))).toString(
          'base64url',
        );
        return `${h}.${forged}.${s}`;
      },
    ],
    ['an unsigned token (alg none)', () => signToken(claims(), undefined, { alg: 'none' })],
    [
      'a token signed with an algorithm not in --oidc-signing-algs',
      () => signToken(claims(), issuer.addKey('ES256')),
    ],
    ['a token without the required claim', () => signToken(claims({ hd: undefined }), key)],
    ['a token whose email is not verified', () => signToken(claims({ email_verified: false }), key)],
  ])('%s is 401 with the Status body', async (_what, token) => {
    const r = await server.request('GET', EVENTS, { token: token() });
    expect([r.status, r.text]).toEqual([401, UNAUTHORIZED]);
  });

  it('picks up a rotated key without a restart', async () => {
    const next = issuer.addKey('RS256');
    issuer.unpublish(key);
    const fetched = issuer.jwksRequests;
    expect((await server.request('GET', EVENTS, { token: signToken(claims(), next) })).status).toBe(200);
    expect(issuer.jwksRequests).toBeGreaterThan(fetched);
    key = next;
  });
});

describe('an OIDC issuer that is down when the server starts', () => {
  it('does not stop the server; its tokens are 401 until the issuer is up, then accepted', async () => {
    const port = await freePort();
    const url = `https://127.0.0.1:${port}`;
    const server = await startServer(url);
    const claims = {
      iss: url,
      aud: 'keel',
      email: 'bob@example.com',
      hd: 'example.com',
      exp: now() + 600,
    };
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const early = signToken(claims, { kid: 'k', alg: 'RS256', privateKey, jwk: {} });
    const r = await server.request('GET', EVENTS, { token: early });
    expect([r.status, r.text]).toEqual([401, UNAUTHORIZED]);
    expect((await server.request('GET', '/readyz')).status).toBe(200);

    const issuer = await TestOIDCIssuer.start(serving, { port });
    issuers.push(issuer);
    const key = issuer.addKey('RS256');
    // kube retries discovery every 10 seconds.
    await untilAccepted(server, signToken(claims, key), 40_000);
  }, 60_000);
});
