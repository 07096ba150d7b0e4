import { TestApiServer, USER_TOKEN } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, eventBody, statusText, stores } from './support/fixtures.js';
import { openWatch, rawRequest } from './support/http.js';
import { TestPKI } from '@keel/testing';

// --authorization-mode=ABAC with a policy file: alice (token file, groups dev,qa) may only read
// in namespace default; her group qa may read events in namespace qa; a client certificate's
// organisation "writers" may write in namespace platform-public. Groups from the token file and from the
// certificate's O are proven by the policies that name only a group.

const policy = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });

const POLICY = [
  '# comments and blank lines are skipped',
  '',
  policy({ user: 'alice', namespace: 'default', resource: '*', apiGroup: '*', readonly: true }),
  policy({ group: 'qa', namespace: 'qa', resource: 'events', apiGroup: 'events.k8s.io', readonly: true }),
  policy({ group: 'writers', namespace: 'platform-public', resource: '*', apiGroup: '*' }),
  policy({ group: 'system:authenticated', nonResourcePath: '/healthz', readonly: true }),
  policy({ group: 'system:unauthenticated', nonResourcePath: '/livez*', readonly: true }),
].join('\n');

const pki = new TestPKI();
const ca = pki.ca('abac-client-ca');
const writer = pki.client(ca, 'wendy', ['writers']);
const policyFile = pki.file('policy.jsonl', POLICY + '\n');
afterAll(() => pki.cleanup());

const NO_MATCH = ': No policy matched.';
const denied = (message: string, details: Record<string, unknown> = {}) =>
  statusText(403, 'Forbidden', message + NO_MATCH, details);
const EVENTS_DETAILS = { group: 'events.k8s.io', kind: 'events' };

describe.each(stores)('ABAC (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        '--authorization-mode=ABAC',
        `--authorization-policy-file=${policyFile}`,
        `--client-ca-file=${ca.certFile}`,
      ],
      ...(redisUrl ? { redisUrl } : {}),
    });
    await server.ready();
    expect((await server.request('POST', EVENTS, { body: eventBody('seed') })).status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    ['list', 'GET', EVENTS],
    ['get', 'GET', `${EVENTS}/seed`],
    ['core list', 'GET', '/api/v1/namespaces/default/events'],
    ['get of a missing object (authorized, then 404)', 'GET', `${EVENTS}/missing`],
    ['group qa reads events in qa', 'GET', '/apis/events.k8s.io/v1/namespaces/qa/events'],
  ])('alice may %s', async (_what, method, path) => {
    const r = await server.request(method, path, { token: USER_TOKEN });
    expect(r.status).toBe(path.endsWith('/missing') ? 404 : 200);
  });

  it('alice may watch in default', async () => {
    const watch = await openWatch(server, `${EVENTS}?watch=true&timeoutSeconds=1`, { token: USER_TOKEN });
    expect(watch.status).toBe(200);
    await watch.ended;
    expect(watch.events.map((e) => e.type)).toEqual(['ADDED']);
  });

  it.each([
    [
      'POST',
      EVENTS,
      'events.events.k8s.io is forbidden: User "alice" cannot create resource "events" in API group "events.k8s.io" in the namespace "default"',
      EVENTS_DETAILS,
    ],
    [
      'DELETE',
      `${EVENTS}/seed`,
      'events.events.k8s.io "seed" is forbidden: User "alice" cannot delete resource "events" in API group "events.k8s.io" in the namespace "default"',
      { name: 'seed', ...EVENTS_DETAILS },
    ],
    [
      'GET',
      '/apis/events.k8s.io/v1/namespaces/other/events',
      'events.events.k8s.io is forbidden: User "alice" cannot list resource "events" in API group "events.k8s.io" in the namespace "other"',
      EVENTS_DETAILS,
    ],
    [
      'GET',
      '/apis/events.k8s.io/v1/events',
      'events.events.k8s.io is forbidden: User "alice" cannot list resource "events" in API group "events.k8s.io" at the cluster scope',
      EVENTS_DETAILS,
    ],
    [
      'GET',
      '/api/v1/namespaces/qa/events',
      'events is forbidden: User "alice" cannot list resource "events" in API group "" in the namespace "qa"',
      { kind: 'events' },
    ],
    ['GET', '/readyz', 'forbidden: User "alice" cannot get path "/readyz"', {}],
  ])('alice may not %s %s', async (method, path, message, details) => {
    const body = method === 'POST' ? { body: eventBody('nope') } : {};
    const r = await server.request(method, path, { token: USER_TOKEN, ...body });
    expect([r.status, r.text]).toEqual([403, denied(message, details)]);
  });

  it('a non-resource policy on system:authenticated covers token and certificate users, not anonymous', async () => {
    expect((await server.request('GET', '/healthz', { token: USER_TOKEN })).text).toBe('ok');
    expect((await rawRequest(server, '/healthz', { token: null, cert: writer })).text).toBe('ok');
    const anon = await server.request('GET', '/healthz', { token: null });
    expect([anon.status, anon.text]).toEqual([
      403,
      denied('forbidden: User "system:anonymous" cannot get path "/healthz"'),
    ]);
  });

  it('a prefix nonResourcePath lets anonymous read /livez and its per-check paths', async () => {
    expect((await server.request('GET', '/livez', { token: null })).text).toBe('ok');
    expect((await server.request('GET', '/livez/ping', { token: null })).text).toBe('ok');
    // readonly: a POST to the same path is refused.
    const post = await server.request('POST', '/livez', { token: null });
    expect([post.status, post.text]).toEqual([
      403,
      denied('forbidden: User "system:anonymous" cannot post path "/livez"'),
    ]);
  });

  it('the certificate organisation "writers" may write in namespace platform-public only', async () => {
    const path = '/apis/events.k8s.io/v1/namespaces/platform-public/events';
    const create = await rawRequest(server, path, {
      method: 'POST',
      token: null,
      cert: writer,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(eventBody('by-cert', 'platform-public')),
    });
    expect(create.status).toBe(201);
    expect((await rawRequest(server, `${path}/by-cert`, { token: null, cert: writer })).status).toBe(200);
    const elsewhere = await rawRequest(server, EVENTS, { token: null, cert: writer });
    expect([elsewhere.status, elsewhere.text]).toEqual([
      403,
      denied(
        'events.events.k8s.io is forbidden: User "wendy" cannot list resource "events" in API group "events.k8s.io" in the namespace "default"',
        EVENTS_DETAILS,
      ),
    ]);
  });

  it('system:masters bypasses the policy', async () => {
    expect((await server.request('DELETE', `${EVENTS}/seed`)).status).toBe(200);
    expect((await server.request('GET', '/readyz')).text).toBe('ok');
  });
});
