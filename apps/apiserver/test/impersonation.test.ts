/**
 * Impersonation over HTTPS: the Impersonate-* headers checked against the `impersonate` verb
 * with ABAC policies, the identity the request then acts as (read back with SelfSubjectReview),
 * the 403s naming the first part refused, and the 400 for groups, extras or a uid without a user.
 */
import { TestApiServer, TestPKI, USER_TOKEN } from '@keel/testing';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from './support/core.js';
import { statusText } from './support/fixtures.js';

const policy = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });

// alice (token file, groups dev,qa) may impersonate any user, service accounts in namespace
// ci and uids, but no group or extra; jane may read pods in default; everyone, authenticated
// or not, may ask who they are.
const POLICY = [
  policy({ user: 'alice', namespace: '', apiGroup: '', resource: 'users' }),
  policy({ user: 'alice', namespace: 'ci', apiGroup: '', resource: 'serviceaccounts' }),
  policy({ user: 'alice', namespace: '', apiGroup: 'authentication.k8s.io', resource: 'uids' }),
  policy({ user: 'jane', namespace: 'default', apiGroup: '', resource: 'pods', readonly: true }),
  policy({
    group: 'system:authenticated',
    namespace: '*',
    apiGroup: 'authentication.k8s.io',
    resource: 'selfsubjectreviews',
  }),
  policy({
    group: 'system:unauthenticated',
    namespace: '*',
    apiGroup: 'authentication.k8s.io',
    resource: 'selfsubjectreviews',
  }),
].join('\n');

const pki = new TestPKI();
const policyFile = pki.file('policy.jsonl', POLICY + '\n');
afterAll(() => pki.cleanup());

const WHOAMI = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const PODS = '/api/v1/namespaces/default/pods';
const NO_MATCH = ': No policy matched.';

describe('impersonation', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: ['--authorization-mode=ABAC', `--authorization-policy-file=${policyFile}`],
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Who the server takes the request for, sending the given headers (rawHeaders keep repeats apart). */
  async function whoami(headers: [string, string][], token: string | null = null): Promise<Json> {
    const r = await server.request('POST', WHOAMI, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      token,
      headers: Object.fromEntries(headers),
    });
    expect(r.status, r.text).toBe(201);
    return ((r.json as Json)['status'] as Json)['userInfo'] as Json;
  }

  it('acts as the user, groups, uid and extras asked for, once allowed (system:masters may do it all)', async () => {
    const r = await server.request('POST', WHOAMI, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      headers: {
        'Impersonate-User': 'jane',
        'Impersonate-Group': 'g1',
        'Impersonate-Uid': '1234',
        'Impersonate-Extra-Scopes': 'view',
        'Impersonate-Extra-Example.com%2Fteam': 'blue',
      },
    });
    expect(r.status).toBe(201);
    expect(((r.json as Json)['status'] as Json)['userInfo']).toEqual({
      username: 'jane',
      uid: '1234',
      // Given groups are the groups; system:authenticated is still added.
      groups: ['g1', 'system:authenticated'],
      // Keys lower-cased and percent-decoded.
      extra: { scopes: ['view'], 'example.com/team': ['blue'] },
    });
  });

  it('takes every value of a repeated Impersonate-Group and Impersonate-Extra header', async () => {
    const res = await request(`${server.url}${WHOAMI}`, {
      method: 'POST',
      dispatcher: server.dispatcher,
      headers: [
        'Authorization',
        'Bearer admin-token',
        'Content-Type',
        'application/json',
        'Impersonate-User',
        'jane',
        'Impersonate-Group',
        'g1',
        'impersonate-group',
        'g2',
        'Impersonate-Extra-Scopes',
        'a',
        'Impersonate-Extra-Scopes',
        'b',
      ],
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });
    const body = (await res.body.json()) as { status: { userInfo: Json } };
    expect(res.statusCode).toBe(201);
    expect(body.status.userInfo).toEqual({
      username: 'jane',
      groups: ['g1', 'g2', 'system:authenticated'],
      extra: { scopes: ['a', 'b'] },
    });
  });

  it('gives a service account its groups unless groups are asked for', async () => {
    const sa = 'system:serviceaccount:ci:builder';
    expect(await whoami([['Impersonate-User', sa]], USER_TOKEN)).toEqual({
      username: sa,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'],
    });
    expect(
      await whoami(
        [
          ['Impersonate-User', sa],
          ['Impersonate-Group', 'builders'],
        ],
        'admin-token',
      ),
    ).toEqual({
      username: sa,
      groups: ['builders', 'system:authenticated'],
    });
  });

  it('adds system:unauthenticated to system:anonymous, and nothing when the groups say which', async () => {
    expect(await whoami([['Impersonate-User', 'system:anonymous']], USER_TOKEN)).toEqual({
      username: 'system:anonymous',
      groups: ['system:unauthenticated'],
    });
    expect(
      await whoami(
        [
          ['Impersonate-User', 'jane'],
          ['Impersonate-Group', 'system:unauthenticated'],
        ],
        'admin-token',
      ),
    ).toEqual({ username: 'jane', groups: ['system:unauthenticated'] });
    expect(
      await whoami(
        [
          ['Impersonate-User', 'jane'],
          ['Impersonate-Uid', 'u-9'],
        ],
        USER_TOKEN,
      ),
    ).toEqual({
      username: 'jane',
      uid: 'u-9',
      groups: ['system:authenticated'],
    });
  });

  it('authorizes the request as the impersonated user', async () => {
    const asJane = { token: USER_TOKEN, headers: { 'Impersonate-User': 'jane' } };
    expect((await server.request('GET', PODS, asJane)).status).toBe(200);
    expect((await server.request('GET', PODS, { token: USER_TOKEN })).status).toBe(403);
    const write = await server.request('DELETE', `${PODS}/p`, asJane);
    expect(write.text).toBe(
      statusText(
        403,
        'Forbidden',
        `pods "p" is forbidden: User "jane" cannot delete resource "pods" in API group "" in the namespace "default"${NO_MATCH}`,
        { name: 'p', kind: 'pods' },
      ),
    );
  });

  it.each<[string, Record<string, string>, string, Record<string, unknown>]>([
    [
      'a group',
      { 'Impersonate-User': 'jane', 'Impersonate-Group': 'g1' },
      'groups "g1" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
      { name: 'g1', kind: 'groups' },
    ],
    [
      'a service account in another namespace',
      { 'Impersonate-User': 'system:serviceaccount:other:builder' },
      'serviceaccounts "builder" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "other"',
      { name: 'builder', kind: 'serviceaccounts' },
    ],
    [
      'an extra',
      { 'Impersonate-User': 'jane', 'Impersonate-Extra-Scopes': 'view' },
      'userextras.authentication.k8s.io "view" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
      { name: 'view', group: 'authentication.k8s.io', kind: 'userextras' },
    ],
  ])('refuses %s alice may not impersonate, with the real 403', async (_what, headers, message, details) => {
    const r = await server.request('GET', PODS, { token: USER_TOKEN, headers });
    expect(r.text).toBe(statusText(403, 'Forbidden', message + NO_MATCH, details));
  });

  it('refuses a caller without the impersonate permission, anonymous included', async () => {
    const r = await server.request('GET', PODS, { token: null, headers: { 'Impersonate-User': 'jane' } });
    expect(r.text).toBe(
      statusText(
        403,
        'Forbidden',
        `users "jane" is forbidden: User "system:anonymous" cannot impersonate resource "users" in API group "" at the cluster scope${NO_MATCH}`,
        { name: 'jane', kind: 'users' },
      ),
    );
  });

  it.each([
    [{ 'Impersonate-Group': 'g1' }, 'requested [{Group  g1    }] without impersonating a user'],
    [
      { 'Impersonate-Extra-Scopes': 'view' },
      'requested [{UserExtra  view  authentication.k8s.io/v1  scopes}] without impersonating a user',
    ],
    [
      { 'Impersonate-Uid': '42' },
      'requested [{UID  42  authentication.k8s.io/v1  }] without impersonating a user',
    ],
  ])('refuses %j without Impersonate-User with a 400', async (headers, message) => {
    const r = await server.request('GET', PODS, { headers });
    expect(r.text).toBe(statusText(400, 'BadRequest', message));
  });
});
