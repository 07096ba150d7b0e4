import type { OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPKI, type TestCert } from '@keel/testing';
import { startTlsServer, tlsRequest, type TlsServer } from '../testing/tls.js';
import { parseCertificates } from './cert-chain.js';
import { stripCredentialHeaders } from './headers.js';
import {
  RequestHeaderAuthenticator,
  unescapeExtraKey,
  type RequestHeaderSettings,
} from './request-header.js';
import { newAuthenticationContext } from './types.js';

const pki = new TestPKI();
let servingCA: TestCert;
let clientCA: TestCert;
let proxyCA: TestCert;
let server: TlsServer;
let settings: RequestHeaderSettings;

beforeAll(async () => {
  const serving = pki.serving();
  servingCA = serving.ca;
  clientCA = pki.ca('client-ca');
  proxyCA = pki.ca('front-proxy-ca');
  settings = {
    roots: parseCertificates(proxyCA.certPem),
    allowedNames: [],
    usernameHeaders: ['X-Remote-User', 'X-Forwarded-User'],
    groupHeaders: ['X-Remote-Group'],
    extraHeaderPrefixes: ['X-Remote-Extra-'],
  };
  server = await startTlsServer(serving.server, clientCA.certPem + proxyCA.certPem, async (req) => {
    const overrides = JSON.parse(
      String(req.headers['x-test-settings'] ?? '{}'),
    ) as Partial<RequestHeaderSettings>;
    const ctx = newAuthenticationContext();
    const result = await new RequestHeaderAuthenticator({ ...settings, ...overrides }).authenticate(req, ctx);
    if (result && 'user' in result) stripCredentialHeaders(req, ctx);
    return {
      result: result ?? null,
      consumed: ctx.consumedHeaders,
      left: Object.keys(req.headers).filter((h) => h.startsWith('x-')),
    };
  });
});

afterAll(async () => {
  await server.close();
  pki.cleanup();
});

interface Reply {
  result: unknown;
  consumed: string[];
  left: string[];
}

function ask(
  cert: TestCert | undefined,
  headers: OutgoingHttpHeaders,
  overrides: Partial<RequestHeaderSettings> = {},
): Promise<Reply> {
  return tlsRequest(server.port, {
    servingCA,
    ...(cert ? { cert } : {}),
    headers: { ...headers, 'x-test-settings': JSON.stringify(overrides) },
  }) as Promise<Reply>;
}

describe('RequestHeaderAuthenticator over TLS', () => {
  it('takes user, every group value and the extras from a trusted proxy, then strips them', async () => {
    const proxy = pki.leaf(proxyCA, { cn: 'front-proxy-client' });
    const reply = await ask(proxy, {
      'X-Remote-User': 'alice',
      'X-Remote-Group': ['dev', 'ops', ''],
      'X-Remote-Extra-Scopes': ['read', 'write'],
      'X-Remote-Extra-Acme.com%2Fproject': 'p1',
      'X-Remote-Extra-Bad%zz': 'kept',
      'X-Other': 'untouched',
    });
    expect(reply.result).toEqual({
      user: {
        name: 'alice',
        uid: '',
        groups: ['dev', 'ops'],
        extra: { scopes: ['read', 'write'], 'acme.com/project': ['p1'], 'bad%zz': ['kept'] },
      },
    });
    expect(reply.consumed).toEqual(
      expect.arrayContaining([
        'x-remote-user',
        'x-forwarded-user',
        'x-remote-group',
        'x-remote-extra-scopes',
      ]),
    );
    expect(reply.left.sort()).toEqual(['x-other', 'x-test-settings']);
  });

  it.each<[string, () => TestCert | undefined, OutgoingHttpHeaders, Partial<RequestHeaderSettings>, unknown]>(
    [
      [
        'the first non-empty user header wins',
        () => pki.leaf(proxyCA, { cn: 'p' }),
        { 'X-Remote-User': '', 'X-Forwarded-User': 'bob' },
        {},
        'bob',
      ],
      [
        'the first value of a user header',
        () => pki.leaf(proxyCA, { cn: 'p' }),
        { 'X-Remote-User': ['carol', 'dave'] },
        {},
        'carol',
      ],
      [
        'no user header: not this method',
        () => pki.leaf(proxyCA, { cn: 'p' }),
        { 'X-Remote-Group': 'dev' },
        {},
        null,
      ],
      ['no certificate: not this method', () => undefined, { 'X-Remote-User': 'alice' }, {}, null],
      [
        'an allowed name',
        () => pki.leaf(proxyCA, { cn: 'front-proxy-client' }),
        { 'X-Remote-User': 'alice' },
        { allowedNames: ['front-proxy-client'] },
        'alice',
      ],
      [
        'a name not allowed',
        () => pki.leaf(proxyCA, { cn: 'intruder' }),
        { 'X-Remote-User': 'alice' },
        { allowedNames: ['front-proxy-client'] },
        { error: 'x509: subject with cn=intruder is not in the allowed list' },
      ],
      [
        'a client-CA certificate is not a proxy, whatever its CN',
        () => pki.leaf(clientCA, { cn: 'front-proxy-client' }),
        { 'X-Remote-User': 'alice' },
        {},
        { error: 'x509: certificate signed by unknown authority' },
      ],
      [
        'an untrusted certificate',
        () => pki.leaf(pki.ca('evil'), { cn: 'front-proxy-client' }),
        { 'X-Remote-User': 'alice' },
        {},
        { error: 'x509: certificate signed by unknown authority' },
      ],
      [
        'a server-only certificate',
        () => pki.leaf(proxyCA, { cn: 'front-proxy-client', usage: 'server' }),
        { 'X-Remote-User': 'alice' },
        {},
        { error: 'x509: certificate specifies an incompatible key usage' },
      ],
    ],
  )('%s', async (_name, make, headers, overrides, expected) => {
    const reply = await ask(make(), headers, overrides);
    if (typeof expected === 'string') expect(reply.result).toMatchObject({ user: { name: expected } });
    else expect(reply.result).toEqual(expected);
    if (typeof expected !== 'string') {
      expect(reply.consumed).toEqual([]);
      expect(reply.left).toEqual(expect.arrayContaining(Object.keys(headers).map((h) => h.toLowerCase())));
    }
  });

  it('matches header names and prefixes case-insensitively', async () => {
    const reply = await ask(
      pki.leaf(proxyCA, { cn: 'p' }),
      { 'x-remote-user': 'alice', 'x-remote-group': 'g', 'x-remote-extra-Key': 'v' },
      {
        usernameHeaders: ['X-REMOTE-USER'],
        groupHeaders: ['X-Remote-GROUP'],
        extraHeaderPrefixes: ['X-REMOTE-extra-'],
      },
    );
    expect(reply.result).toEqual({ user: { name: 'alice', uid: '', groups: ['g'], extra: { key: ['v'] } } });
  });
});

describe('unescapeExtraKey', () => {
  it.each([
    ['scopes', 'scopes'],
    ['acme.com%2fproject', 'acme.com/project'],
    ['%e4%b8%ad', '中'],
    ['a+b', 'a+b'],
    ['bad%zz', 'bad%zz'],
    ['trailing%', 'trailing%'],
    ['half%4', 'half%4'],
  ])('%j → %j', (encoded, decoded) => {
    expect(unescapeExtraKey(encoded)).toBe(decoded);
  });
});
