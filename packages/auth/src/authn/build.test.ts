import { generateKeyPairSync } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config-error.js';
import { signJwt } from '../testing/jwt.js';
import { TestPKI, type TestCert } from '@keel/testing';
import { runAuthentication } from '../testing/run-authentication.js';
import { startTlsServer, tlsRequest, type TlsServer } from '../testing/tls.js';
import { buildAuthenticator } from './build.js';
import { stripCredentialHeaders } from './headers.js';
import { newAuthenticationContext, type Authenticator } from './types.js';

const pki = new TestPKI();
const sa = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ISSUER = 'https://keel.local';
let servingCA: TestCert;
let clientCA: TestCert;
let proxyCA: TestCert;
let server: TlsServer;
let current: Authenticator;
let files: { tokens: string; clientCA: string; proxyCA: string; saKey: string };

beforeAll(async () => {
  const serving = pki.serving();
  servingCA = serving.ca;
  clientCA = pki.ca('client-ca');
  proxyCA = pki.ca('front-proxy-ca');
  files = {
    tokens: pki.file(
      'tokens.csv',
      'admin-token,admin,1,"system:masters"\nbob-token,bob,2,dev\nbob-token,bob,2,"dev,qa"\n',
    ),
    clientCA: clientCA.certFile,
    proxyCA: proxyCA.certFile,
    saKey: pki.file('sa.pub', sa.publicKey.export({ format: 'pem', type: 'spki' }) as string),
  };
  server = await startTlsServer(serving.server, clientCA.certPem + proxyCA.certPem, async (req) => {
    const ctx = newAuthenticationContext();
    const result = await current.authenticate(req, ctx);
    if (result && 'user' in result) stripCredentialHeaders(req, ctx);
    return {
      result: result ?? null,
      warnings: ctx.warnings,
      left: Object.keys(req.headers).filter((h) => h.startsWith('x-remote') || h === 'authorization'),
    };
  });
});

afterAll(async () => {
  await server.close();
  pki.cleanup();
});

function build(argv: string[]) {
  const { config, errors } = runAuthentication(argv);
  expect(errors).toEqual([]);
  return buildAuthenticator(config);
}

interface Reply {
  result: {
    user?: { name: string; groups: string[]; extra: Record<string, string[]> };
    error?: string;
  } | null;
  warnings: string[];
  left: string[];
}
const ask = (cert: TestCert | undefined, headers: OutgoingHttpHeaders = {}) =>
  tlsRequest(server.port, { servingCA, ...(cert ? { cert } : {}), headers }) as Promise<Reply>;

describe('buildAuthenticator: refusals', () => {
  it.each([
    [['--enable-bootstrap-token-auth'], '--enable-bootstrap-token-auth needs the store to read tokens from'],
  ])('%j', (argv, message) => {
    expect(() => build(argv)).toThrow(new ConfigError(message));
  });

  it.each<[string, () => string[], (dir: string) => string]>([
    [
      'a missing token file',
      () => ['--token-auth-file', join(pki.dir, 'x.csv')],
      (d) => `--token-auth-file: open ${d}/x.csv: no such file or directory`,
    ],
    [
      'a missing client CA',
      () => ['--client-ca-file', join(pki.dir, 'x.crt')],
      (d) => `--client-ca-file: open ${d}/x.crt: no such file or directory`,
    ],
    [
      'a missing OIDC CA',
      () => [
        '--oidc-issuer-url=https://idp.example',
        '--oidc-client-id=keel',
        '--oidc-ca-file',
        join(pki.dir, 'o.crt'),
      ],
      (d) => `--oidc-ca-file: open ${d}/o.crt: no such file or directory`,
    ],
    [
      'a missing token webhook connection-config',
      () => ['--authentication-token-webhook-config-file', join(pki.dir, 'hook.conf')],
      (d) =>
        `--authentication-token-webhook-config-file: connection-config ${d}/hook.conf: no such file or directory`,
    ],
    [
      'a missing request-header CA',
      () => ['--requestheader-client-ca-file', join(pki.dir, 'y.crt')],
      (d) => `--requestheader-client-ca-file: open ${d}/y.crt: no such file or directory`,
    ],
    [
      'a key file without keys',
      () => ['--service-account-key-file', pki.file('nokey.pem', 'x')],
      (d) =>
        `--service-account-key-file: error reading public key file ${d}/nokey.pem: data does not contain any valid RSA or ECDSA public keys`,
    ],
  ])('%s', (_name, argv, message) => {
    expect(() => build(argv())).toThrow(new ConfigError(message(pki.dir)));
  });
});

describe('buildAuthenticator: defaults', () => {
  it('is anonymous for everyone when nothing is configured', async () => {
    const built = build([]);
    expect(built.clientCA).toBeUndefined();
    expect(built.warnings).toEqual([]);
    current = built.authenticator;
    // With no token authenticator the header is not even looked at, as upstream.
    expect((await ask(undefined, { Authorization: 'Bearer anything' })).result).toEqual({
      user: { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} },
    });
  });

  it('rejects everyone with no method and --anonymous-auth=false', async () => {
    const built = build(['--anonymous-auth=false']);
    expect(built.warnings).toEqual([
      'no authentication method is configured and --anonymous-auth is false: every request will get 401 Unauthorized',
    ]);
    current = built.authenticator;
    expect((await ask(undefined)).result).toBeNull();
  });
});

describe('buildAuthenticator: every method together, over TLS', () => {
  const argv = () => [
    '--client-ca-file',
    files.clientCA,
    '--requestheader-client-ca-file',
    files.proxyCA,
    '--requestheader-allowed-names',
    'front-proxy-client',
    '--requestheader-username-headers',
    'X-Remote-User',
    '--requestheader-group-headers',
    'X-Remote-Group',
    '--requestheader-extra-headers-prefix',
    'X-Remote-Extra-',
    '--token-auth-file',
    files.tokens,
    '--service-account-key-file',
    files.saKey,
    '--service-account-issuer',
    ISSUER,
  ];
  const now = Math.floor(Date.now() / 1000);
  const saToken = (extra: object = {}) =>
    signJwt(
      {
        iss: ISSUER,
        sub: 'system:serviceaccount:ci:builder',
        aud: [ISSUER],
        iat: now,
        nbf: now,
        exp: now + 600,
        'kubernetes.io': { namespace: 'ci', serviceaccount: { name: 'builder', uid: 'u1' } },
        ...extra,
      },
      sa.privateKey,
      'ES256',
    );
  const legacyToken = () =>
    signJwt(
      {
        iss: 'kubernetes/serviceaccount',
        sub: 'system:serviceaccount:ci:old',
        'kubernetes.io/serviceaccount/namespace': 'ci',
        'kubernetes.io/serviceaccount/secret.name': 'old-token',
        'kubernetes.io/serviceaccount/service-account.name': 'old',
        'kubernetes.io/serviceaccount/service-account.uid': 'u2',
      },
      sa.privateKey,
      'ES256',
    );

  it('reports warnings and the listener CA bundle', () => {
    const built = build(argv());
    expect(built.clientCA).toBe(proxyCA.certPem + clientCA.certPem);
    expect(built.warnings).toEqual([
      `duplicate token has been found in token file '${files.tokens}', record number '3'`,
    ]);
  });

  type Case = [
    string,
    () => TestCert | undefined,
    () => OutgoingHttpHeaders,
    Reply['result'] | string,
    string[]?,
  ];
  const anon = { user: { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} } };
  it.each<Case>([
    ['no credentials: anonymous', () => undefined, () => ({}), anon],
    [
      'a static token',
      () => undefined,
      () => ({ Authorization: 'Bearer bob-token' }),
      'bob|dev,qa,system:authenticated',
    ],
    [
      'a system:masters token',
      () => undefined,
      () => ({ Authorization: 'Bearer admin-token' }),
      'admin|system:masters,system:authenticated',
    ],
    [
      'an unknown token: 401, not anonymous',
      () => undefined,
      () => ({ Authorization: 'Bearer nope' }),
      { error: 'invalid bearer token' },
    ],
    [
      'an extra space: ignored, anonymous, warned',
      () => undefined,
      () => ({ Authorization: 'Bearer  bob-token' }),
      anon,
      ['the provided Authorization header contains extra space before the bearer token, and is ignored'],
    ],
    [
      'a bound service account token',
      () => undefined,
      () => ({ Authorization: `Bearer ${saToken()}` }),
      'system:serviceaccount:ci:builder|system:serviceaccounts,system:serviceaccounts:ci,system:authenticated',
    ],
    [
      'a legacy service account token',
      () => undefined,
      () => ({ Authorization: `Bearer ${legacyToken()}` }),
      'system:serviceaccount:ci:old|system:serviceaccounts,system:serviceaccounts:ci,system:authenticated',
    ],
    [
      'an expired service account token',
      () => undefined,
      () => ({ Authorization: `Bearer ${saToken({ exp: now - 3600 })}` }),
      { error: 'service account token has expired' },
    ],
    [
      'a client certificate',
      () => pki.leaf(clientCA, { cn: 'carol', orgs: ['ops'] }),
      () => ({}),
      'carol|ops,system:authenticated',
    ],
    [
      'a client certificate beats a bad token',
      () => pki.leaf(clientCA, { cn: 'carol' }),
      () => ({ Authorization: 'Bearer nope' }),
      'carol|system:authenticated',
    ],
    [
      'a good token after a bad certificate',
      () => pki.leaf(pki.ca('evil'), { cn: 'eve' }),
      () => ({ Authorization: 'Bearer bob-token' }),
      'bob|dev,qa,system:authenticated',
    ],
    [
      'a bad certificate alone: 401',
      () => pki.leaf(pki.ca('evil'), { cn: 'eve' }),
      () => ({}),
      'error:unknown authority',
    ],
    [
      'the front proxy',
      () => pki.leaf(proxyCA, { cn: 'front-proxy-client' }),
      () => ({
        'X-Remote-User': 'dora',
        'X-Remote-Group': ['a', 'b'],
        'X-Remote-Extra-Team': 'x',
        Authorization: 'Bearer nope',
      }),
      'dora|a,b,system:authenticated',
    ],
    [
      'the front proxy without a user header is not a client-CA user: 401',
      () => pki.leaf(proxyCA, { cn: 'front-proxy-client' }),
      () => ({}),
      'error:unknown authority',
    ],
    [
      'identity headers from a client-CA certificate are ignored',
      () => pki.leaf(clientCA, { cn: 'carol' }),
      () => ({ 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' }),
      'carol|system:authenticated',
    ],
    [
      'a proxy certificate with a name not allowed',
      () => pki.leaf(proxyCA, { cn: 'someone-else' }),
      () => ({ 'X-Remote-User': 'dora' }),
      'error:cn=someone-else is not in the allowed list',
    ],
  ])('%s', async (_name, cert, headers, expected, warnings = []) => {
    current = build(argv()).authenticator;
    const reply = await ask(cert(), headers());
    if (typeof expected === 'string' && expected.startsWith('error:')) {
      expect(reply.result?.error).toContain(expected.slice('error:'.length));
    } else if (typeof expected === 'string') {
      const [name, groups] = expected.split('|');
      expect(reply.result?.user?.name).toBe(name);
      expect(reply.result?.user?.groups).toEqual(groups?.split(','));
      // Credentials never travel further than authentication; only the proxy's own headers are
      // consumed (as upstream, other X-Remote-* headers are left alone but never believed).
      expect(reply.left).not.toContain('authorization');
      if (name === 'dora') expect(reply.left).toEqual([]);
    } else {
      expect(reply.result).toEqual(expected);
    }
    expect(reply.warnings).toEqual(warnings);
  });

  it('without anonymous, no credentials is no user', async () => {
    current = build([...argv(), '--anonymous-auth=false']).authenticator;
    expect((await ask(undefined)).result).toBeNull();
    expect((await ask(undefined, { Authorization: 'Bearer bob-token' })).result?.user?.name).toBe('bob');
  });
});
