import { join } from 'node:path';
import { apiServerEntry, runNode, TestApiServer, USER_TOKEN } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, eventBody, statusText, stores, UNAUTHORIZED } from './support/fixtures.js';
import { rawRequest } from './support/http.js';
import { TestPKI, type TestCert } from '@keel/testing';

// Who is asking (static tokens, client certificates, anonymous) and what they may do
// (AlwaysAllow, AlwaysDeny, the system:masters short-circuit), through the built daemon.
// ABAC has its own file.

const pki = new TestPKI();
const ca = pki.ca('e2e-client-ca');
const stranger = pki.ca('untrusted-ca');
const certs = {
  carol: pki.client(ca, 'carol', ['dev', 'ops']),
  untrusted: pki.client(stranger, 'mallory', ['system:masters']),
  expired: pki.client(ca, 'old', [], -1),
  noCN: pki.client(ca, '', ['dev']),
  master: pki.client(ca, 'root', ['system:masters']),
};
afterAll(() => pki.cleanup());

const forbidden = (message: string, details: Record<string, unknown> = {}) =>
  statusText(403, 'Forbidden', message, details);

describe.each(stores)('authentication and authorization (%s store)', (_store, redisUrl) => {
  const servers: TestApiServer[] = [];
  const start = async (args: string[]) => {
    const s = await TestApiServer.start({ args, ...(redisUrl ? { redisUrl } : {}) });
    servers.push(s);
    await s.ready();
    return s;
  };
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  describe('defaults (anonymous on, AlwaysAllow) with --client-ca-file', () => {
    let server: TestApiServer;
    beforeAll(async () => {
      server = await start([`--client-ca-file=${ca.certFile}`]);
    });

    it.each([
      ['the admin token', {}],
      ['a user token', { token: USER_TOKEN }],
      ['no credentials (anonymous)', { token: null }],
      ['a lower-case scheme', { token: null, headers: { authorization: `bearer ${USER_TOKEN}` } }],
      ['a non-bearer scheme (ignored: anonymous)', { token: null, headers: { authorization: 'Basic YTpi' } }],
      ['an empty bearer token (ignored: anonymous)', { token: null, headers: { authorization: 'Bearer ' } }],
    ])('%s is allowed', async (_what, opts) => {
      const r = await server.request('GET', EVENTS, opts);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ kind: 'EventList' });
    });

    it.each(['/livez', EVENTS, `${EVENTS}/x`, '/nothing', '/apis/nope/v1/things'])(
      'a bad token on %s is 401 with the exact Status, even with anonymous on',
      async (path) => {
        const r = await server.request('GET', path, { token: 'not-a-token' });
        expect([r.status, r.text]).toEqual([401, UNAUTHORIZED]);
        expect(r.headers['content-type']).toBe('application/json');
      },
    );

    it('an extra space before the token is ignored with a Warning (anonymous)', async () => {
      const r = await server.request('GET', '/livez', {
        token: null,
        headers: { authorization: `Bearer  ${USER_TOKEN}` },
      });
      expect(r.status).toBe(200);
      expect(r.headers['warning']).toBe(
        '299 - "the provided Authorization header contains extra space before the bearer token, and is ignored"',
      );
    });

    it.each([
      ['a trusted client certificate', certs.carol, 200],
      ['a certificate without a CommonName (not this method: anonymous)', certs.noCN, 200],
      ['a certificate from an untrusted CA', certs.untrusted, 401],
      ['an expired certificate', certs.expired, 401],
    ] as [string, TestCert, number][])('%s: %i', async (_what, cert, status) => {
      const r = await rawRequest(server, EVENTS, { token: null, cert });
      expect(r.status).toBe(status);
      if (status === 401) expect(r.text).toBe(UNAUTHORIZED);
    });

    it('the authenticators are a union: a good token wins over a bad certificate', async () => {
      const r = await rawRequest(server, EVENTS, { token: USER_TOKEN, cert: certs.untrusted });
      expect(r.status).toBe(200);
    });
  });

  describe('--anonymous-auth=false', () => {
    let server: TestApiServer;
    beforeAll(async () => {
      server = await start(['--anonymous-auth=false']);
    });

    it.each(['/livez', '/readyz?verbose', EVENTS, '/nothing'])(
      '%s without credentials is 401',
      async (path) => {
        const r = await server.request('GET', path, { token: null });
        expect([r.status, r.text]).toEqual([401, UNAUTHORIZED]);
        expect(r.headers['audit-id']).toMatch(/^[0-9a-f-]{36}$/);
      },
    );

    it('tokens still work', async () => {
      expect((await server.request('GET', EVENTS, { token: USER_TOKEN })).status).toBe(200);
      expect((await server.request('GET', '/livez', { token: USER_TOKEN })).text).toBe('ok');
    });
  });

  describe('--authorization-mode=AlwaysDeny', () => {
    let server: TestApiServer;
    beforeAll(async () => {
      server = await start(['--authorization-mode=AlwaysDeny', `--client-ca-file=${ca.certFile}`]);
    });
    const why = ': Everything is forbidden.';

    it.each([
      ['GET', '/livez', 'forbidden: User "alice" cannot get path "/livez"', {}],
      [
        'GET',
        '/readyz/poststarthook/bootstrap-controller',
        'forbidden: User "alice" cannot get path "/readyz/poststarthook/bootstrap-controller"',
        {},
      ],
      ['POST', '/healthz', 'forbidden: User "alice" cannot post path "/healthz"', {}],
      ['GET', '/nothing', 'forbidden: User "alice" cannot get path "/nothing"', {}],
      [
        'GET',
        EVENTS,
        'events.events.k8s.io is forbidden: User "alice" cannot list resource "events" in API group "events.k8s.io" in the namespace "default"',
        { group: 'events.k8s.io', kind: 'events' },
      ],
      [
        'GET',
        `${EVENTS}/e1`,
        'events.events.k8s.io "e1" is forbidden: User "alice" cannot get resource "events" in API group "events.k8s.io" in the namespace "default"',
        { name: 'e1', group: 'events.k8s.io', kind: 'events' },
      ],
      [
        'DELETE',
        '/api/v1/namespaces/kube-system/events/e2',
        'events "e2" is forbidden: User "alice" cannot delete resource "events" in API group "" in the namespace "kube-system"',
        { name: 'e2', kind: 'events' },
      ],
      [
        'GET',
        '/apis/events.k8s.io/v1/events?watch=true',
        'events.events.k8s.io is forbidden: User "alice" cannot watch resource "events" in API group "events.k8s.io" at the cluster scope',
        { group: 'events.k8s.io', kind: 'events' },
      ],
    ])('%s %s is a 403 Status', async (method, path, message, details) => {
      const r = await server.request(method, path, { token: USER_TOKEN });
      expect([r.status, r.text]).toEqual([403, forbidden(message + why, details)]);
      expect(r.headers['audit-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('names anonymous and certificate users', async () => {
      const anon = await server.request('GET', '/livez', { token: null });
      expect(anon.text).toBe(forbidden(`forbidden: User "system:anonymous" cannot get path "/livez"${why}`));
      const carol = await rawRequest(server, '/livez', { token: null, cert: certs.carol });
      expect(carol.text).toBe(forbidden(`forbidden: User "carol" cannot get path "/livez"${why}`));
    });

    it('system:masters is still allowed, by token or by certificate organisation', async () => {
      expect((await server.request('GET', '/livez')).text).toBe('ok');
      expect((await server.request('POST', EVENTS, { body: eventBody('by-admin') })).status).toBe(201);
      expect((await rawRequest(server, '/readyz', { token: null, cert: certs.master })).text).toBe('ok');
      expect(
        (await rawRequest(server, `${EVENTS}/by-admin`, { token: null, cert: certs.master })).status,
      ).toBe(200);
    });

    it('an untrusted certificate claiming system:masters grants nothing', async () => {
      const r = await rawRequest(server, '/livez', { token: null, cert: certs.untrusted });
      expect([r.status, r.text]).toEqual([401, UNAUTHORIZED]);
      const withToken = await rawRequest(server, '/livez', { token: USER_TOKEN, cert: certs.untrusted });
      expect(withToken.text).toBe(forbidden(`forbidden: User "alice" cannot get path "/livez"${why}`));
    });
  });
});

describe('start-up refusals', () => {
  const twoColumns = pki.file('two-columns.csv', 'tok,alice\n');
  const badPolicy = pki.file(
    'bad-policy.jsonl',
    '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":\n',
  );
  const base = (dir: string) => [
    '--bind-address=127.0.0.1',
    '--secure-port=1',
    `--cert-dir=${join(dir, 'certs')}`,
  ];

  it.each([
    [
      [`--token-auth-file=${twoColumns}`],
      `--token-auth-file: token file '${twoColumns}' must have at least 3 columns (token, user name, user uid), found 2`,
    ],
    [
      [
        '--oidc-issuer-url=https://issuer.example.com',
        '--oidc-client-id=keel',
        '--oidc-ca-file=/nonexistent/oidc.crt',
      ],
      /^--oidc-ca-file.*\/nonexistent\/oidc\.crt.*no such file or directory$/,
    ],
    [
      ['--authentication-token-webhook-config-file=/nonexistent/hook.yaml'],
      '--authentication-token-webhook-config-file: connection-config /nonexistent/hook.yaml: no such file or directory',
    ],
    [
      ['--authorization-mode=Webhook', '--authorization-webhook-config-file=/nonexistent/hook.yaml'],
      '--authorization-webhook-config-file: connection-config /nonexistent/hook.yaml: no such file or directory',
    ],
    [
      ['--client-ca-file=/nonexistent/ca.crt'],
      /^--client-ca-file.*\/nonexistent\/ca\.crt.*no such file or directory$/,
    ],
    [
      ['--authorization-mode=ABAC', `--authorization-policy-file=${badPolicy}`],
      /^--authorization-policy-file: error reading policy file .*, line 1: /,
    ],
  ] as [string[], string | RegExp][])('%j exits 1 with one Error: line', async (args, message) => {
    const r = await runNode(apiServerEntry, [...base(pki.dir), ...args]);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(
      lines.filter((l) => l.startsWith('Error: ')),
      r.stderr,
    ).toHaveLength(1);
    const line = lines.find((l) => l.startsWith('Error: '))!.slice('Error: '.length);
    if (typeof message === 'string') expect(line).toBe(message);
    else expect(line).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });
});
