import { freePort, signToken, TestOIDCIssuer, TestPKI, type IssuerKey, type TestCert } from '@keel/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runAuthentication } from '../../testing/run-authentication.js';
import { OIDCAuthenticator } from './oidc-authenticator.js';

// The OIDC authenticator against a real provider on loopback: discovery and JWKS over HTTPS under
// a test CA, tokens signed with the provider's keys (and with keys it never published).

const pki = new TestPKI();
let ca: TestCert;
let serving: TestCert;
let issuer: TestOIDCIssuer;
let rsa: IssuerKey;
const open: OIDCAuthenticator[] = [];

beforeAll(async () => {
  ca = pki.ca('oidc-ca');
  serving = pki.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1'] });
  issuer = await TestOIDCIssuer.start(serving);
  rsa = issuer.addKey('RS256');
});

afterEach(() => {
  for (const a of open.splice(0)) a.close();
});

afterAll(async () => {
  await issuer.stop();
  pki.cleanup();
});

const now = () => Math.floor(Date.now() / 1000);

/** An authenticator from real flags, trusting the test CA unless `trust` is false. */
async function authenticator(
  args: string[] = [],
  opts: { url?: string; trust?: boolean; wait?: boolean } = {},
): Promise<OIDCAuthenticator> {
  const url = opts.url ?? issuer.url;
  const { config, errors } = runAuthentication([
    '--oidc-issuer-url',
    url,
    '--oidc-client-id',
    'keel',
    ...args,
  ]);
  expect(errors).toEqual([]);
  if (!config.oidc) throw new Error('no OIDC config');
  const a = new OIDCAuthenticator(config.oidc, {
    ...(opts.trust === false ? {} : { caPem: ca.certPem }),
    retryMs: 50,
  });
  open.push(a);
  if (opts.wait !== false) await until(() => a.initialized);
  return a;
}

async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function claims(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { iss: issuer.url, aud: 'keel', sub: 'alice', iat: now(), exp: now() + 300, ...extra };
}

const errorOf = (r: unknown) => (r as { error?: string } | undefined)?.error;

describe('OIDCAuthenticator: who a good token is', () => {
  it('prefixes a sub claim with the issuer and leaves groups alone by default', async () => {
    const a = await authenticator(['--oidc-groups-claim', 'groups']);
    expect(await a.authenticateToken(signToken(claims({ groups: ['dev', 'ops'] }), rsa))).toEqual({
      user: { name: `${issuer.url}#alice`, uid: '', groups: ['dev', 'ops'], extra: {} },
    });
  });

  it.each([
    [[], 'alice@example.com'],
    [['--oidc-username-prefix', 'oidc:'], 'oidc:alice@example.com'],
  ])('uses the email claim without a prefix unless one is given (%j)', async (args, name) => {
    const a = await authenticator(['--oidc-username-claim', 'email', ...args]);
    const r = await a.authenticateToken(
      signToken(claims({ email: 'alice@example.com', email_verified: true }), rsa),
    );
    expect(r).toMatchObject({ user: { name } });
  });

  it.each([
    [['--oidc-username-prefix', '-'], 'alice'],
    [['--oidc-username-prefix', 'corp:'], 'corp:alice'],
    [['--oidc-username-claim', 'name'], `ISSUER#Alice Smith`],
  ])('applies the username prefix rule for %j', async (args, name) => {
    const a = await authenticator(args);
    const r = await a.authenticateToken(signToken(claims({ name: 'Alice Smith' }), rsa));
    expect(r).toMatchObject({ user: { name: name.replace('ISSUER', issuer.url) } });
  });

  it('reads a single-string groups claim and prefixes groups', async () => {
    const a = await authenticator(['--oidc-groups-claim', 'role', '--oidc-groups-prefix', 'oidc:']);
    const r = await a.authenticateToken(signToken(claims({ role: 'admin' }), rsa));
    expect(r).toMatchObject({ user: { groups: ['oidc:admin'] } });
  });

  it('accepts the algorithms --oidc-signing-algs lists', async () => {
    const es = issuer.addKey('ES256');
    const a = await authenticator(['--oidc-signing-algs', 'RS256,ES256']);
    expect(await a.authenticateToken(signToken(claims(), es))).toMatchObject({
      user: { name: `${issuer.url}#alice` },
    });
    expect(await a.authenticateToken(signToken(claims(), rsa))).toMatchObject({ user: {} });
    issuer.unpublish(es);
  });

  it('accepts a token whose nbf is less than a minute ahead (clock skew)', async () => {
    const a = await authenticator();
    expect(await a.authenticateToken(signToken(claims({ nbf: now() + 30 }), rsa))).toMatchObject({
      user: {},
    });
  });

  it('needs every required claim with its value', async () => {
    const a = await authenticator([
      '--oidc-required-claim',
      'hd=example.com',
      '--oidc-required-claim',
      'tier=gold',
    ]);
    expect(
      await a.authenticateToken(signToken(claims({ hd: 'example.com', tier: 'gold' }), rsa)),
    ).toMatchObject({
      user: {},
    });
    expect(errorOf(await a.authenticateToken(signToken(claims({ hd: 'example.com' }), rsa)))).toBe(
      'oidc: required claim tier not present in ID token',
    );
    expect(
      errorOf(await a.authenticateToken(signToken(claims({ hd: 'other.com', tier: 'gold' }), rsa))),
    ).toBe('oidc: required claim hd value does not match. Got = other.com, want = example.com');
  });
});

describe('OIDCAuthenticator: bad tokens', () => {
  let a: OIDCAuthenticator;
  beforeAll(async () => {
    const { config } = runAuthentication([
      '--oidc-issuer-url',
      issuer.url,
      '--oidc-client-id',
      'keel',
      '--oidc-username-claim',
      'email',
    ]);
    if (!config.oidc) throw new Error('no OIDC config');
    a = new OIDCAuthenticator(config.oidc, { caPem: ca.certPem });
    await until(() => a.initialized);
  });
  afterAll(() => a.close());
  const good = () => claims({ email: 'alice@example.com' });

  it.each<[string, () => string, string]>([
    [
      'expired',
      () => signToken({ ...good(), exp: now() - 5 }, rsa),
      'oidc: verify token: oidc: token is expired',
    ],
    [
      'without exp',
      () => signToken({ ...good(), exp: undefined }, rsa),
      'oidc: verify token: oidc: token is expired',
    ],
    [
      'not yet valid',
      () => signToken({ ...good(), nbf: now() + 600 }, rsa),
      'before the nbf (not before) time',
    ],
    [
      'for another audience',
      () => signToken({ ...good(), aud: ['other'] }, rsa),
      'oidc: expected audience "keel" got ["other"]',
    ],
    [
      'signed with alg none',
      () => signToken(good(), undefined, { alg: 'none' }),
      'unsupported algorithm, expected ["RS256"] got "none"',
    ],
    [
      'signed with an algorithm not allowed',
      () => signToken(good(), issuer.addKey('ES256')),
      'unsupported algorithm, expected ["RS256"] got "ES256"',
    ],
    [
      'with a tampered payload',
      () => {
        const [h, , s] = signToken(good(), rsa).split('.');
        return `${h}.${Buffer.from(JSON.stringify({ ...good(), email: 'root@example.com' })).toString('base64url')}.${s}`;
      },
      'failed to verify signature',
    ],
    [
      'signed by a key the issuer never published',
      () => signToken(good(), issuer.addKey('RS256', false)),
      'failed to verify signature',
    ],
    [
      'with email_verified false',
      () => signToken({ ...good(), email_verified: false }, rsa),
      'oidc: email not verified',
    ],
    [
      'without the username claim',
      () => signToken(claims(), rsa),
      'oidc: parse username claims "email": claim not present',
    ],
  ])('%s is refused', async (_what, token, message) => {
    expect(errorOf(await a.authenticateToken(token()))).toContain(message);
  });

  it('leaves tokens of another issuer (or no JWT at all) to other authenticators', async () => {
    expect(
      await a.authenticateToken(signToken({ ...good(), iss: 'https://elsewhere.example' }, rsa)),
    ).toBeUndefined();
    expect(await a.authenticateToken('opaque-token')).toBeUndefined();
  });
});

describe('OIDCAuthenticator: keys', () => {
  it('picks up a rotated key without a restart, and refuses a kid still unknown after the refresh', async () => {
    const a = await authenticator();
    expect(await a.authenticateToken(signToken(claims(), rsa))).toMatchObject({ user: {} });
    const fetched = issuer.jwksRequests;
    const next = issuer.addKey('RS256');
    expect(await a.authenticateToken(signToken(claims(), next))).toMatchObject({ user: {} });
    expect(issuer.jwksRequests).toBe(fetched + 1);
    issuer.unpublish(next);
    const unknown = issuer.addKey('RS256', false);
    expect(errorOf(await a.authenticateToken(signToken(claims(), unknown)))).toContain(
      `Unable to find a signing key that matches '${unknown.kid}'`,
    );
    expect(issuer.jwksRequests).toBe(fetched + 2);
  });

  it('refreshes the key set for unknown kids at most 10 times a minute', async () => {
    const a = await authenticator(['--oidc-signing-algs', 'RS256,ES256']);
    const before = issuer.jwksRequests;
    expect(await a.authenticateToken(signToken(claims(), rsa))).toMatchObject({ user: {} });
    for (let i = 0; i < 15; i++) {
      const r = await a.authenticateToken(signToken(claims(), issuer.addKey('ES256', false)));
      expect(errorOf(r)).toContain('failed to verify signature');
    }
    expect(issuer.jwksRequests - before).toBe(10);
    // The known key is cached, so it still works while refreshes are used up.
    expect(await a.authenticateToken(signToken(claims(), rsa))).toMatchObject({ user: {} });
  });
});

describe('OIDCAuthenticator: discovery', () => {
  it('keeps trying an issuer that is down at start-up, refusing its tokens until it is up', async () => {
    const port = await freePort();
    const a = await authenticator([], { url: `https://127.0.0.1:${port}`, wait: false });
    const late = await TestOIDCIssuer.start(serving, { port });
    try {
      const key = late.addKey('RS256');
      const token = signToken({ ...claims(), iss: late.url }, key);
      // The authenticator may already have found it; before that, the token is refused.
      const first = await a.authenticateToken(token);
      if (!a.initialized) expect(first).toEqual({ error: 'oidc: authenticator not initialized' });
      await until(() => a.initialized);
      expect(await a.authenticateToken(token)).toMatchObject({ user: { name: `${late.url}#alice` } });
    } finally {
      await late.stop();
    }
  });

  it('refuses tokens while the issuer is down, whatever they claim', async () => {
    const port = await freePort();
    const a = await authenticator([], { url: `https://127.0.0.1:${port}`, wait: false });
    await new Promise((r) => setTimeout(r, 150)); // several failed attempts
    expect(a.initialized).toBe(false);
    expect(
      await a.authenticateToken(signToken({ ...claims(), iss: `https://127.0.0.1:${port}` }, rsa)),
    ).toEqual({
      error: 'oidc: authenticator not initialized',
    });
  });

  it('never trusts a provider whose discovery document names another issuer', async () => {
    issuer.advertisedIssuer = 'https://impostor.example';
    try {
      const a = await authenticator([], { wait: false });
      const before = issuer.discoveryRequests;
      await until(() => issuer.discoveryRequests >= before + 2);
      expect(a.initialized).toBe(false);
    } finally {
      issuer.advertisedIssuer = undefined;
    }
  });

  it('verifies the issuer with --oidc-ca-file, not without it', async () => {
    const a = await authenticator([], { trust: false, wait: false });
    const before = issuer.discoveryRequests;
    await new Promise((r) => setTimeout(r, 200));
    expect(a.initialized).toBe(false);
    expect(issuer.discoveryRequests).toBe(before); // the TLS handshake failed: no request was made
  });
});
