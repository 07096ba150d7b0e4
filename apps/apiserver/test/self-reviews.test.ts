/**
 * The self reviews and LocalSubjectAccessReview over HTTPS, answered by the server's own
 * authorizer chain for the caller the token file names: SelfSubjectAccessReview (can-i),
 * SelfSubjectRulesReview (can-i --list), SelfSubjectReview (whoami) in every served version,
 * and their bad requests.
 */
import { TestApiServer, TestPKI, USER_TOKEN } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from './support/core.js';
import { statusText } from './support/fixtures.js';

const AUTHZ = '/apis/authorization.k8s.io/v1';
const SSARS = `${AUTHZ}/selfsubjectaccessreviews`;
const SSRRS = `${AUTHZ}/selfsubjectrulesreviews`;
const lsars = (ns: string) => `${AUTHZ}/namespaces/${ns}/localsubjectaccessreviews`;
const ssrs = (version: string) => `/apis/authentication.k8s.io/${version}/selfsubjectreviews`;

const policy = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
const everyone = (apiGroup: string, resource: string) =>
  policy({ group: 'system:authenticated', namespace: '*', apiGroup, resource });

// alice (token file, groups dev,qa) reads everything in default and may ask about others
// there; every authenticated user may ask about themselves and read /healthz.
const POLICY = [
  policy({ user: 'alice', namespace: 'default', resource: '*', apiGroup: '*', readonly: true }),
  policy({
    user: 'alice',
    namespace: 'default',
    resource: 'localsubjectaccessreviews',
    apiGroup: 'authorization.k8s.io',
  }),
  everyone('authorization.k8s.io', 'selfsubjectaccessreviews'),
  everyone('authorization.k8s.io', 'selfsubjectrulesreviews'),
  everyone('authentication.k8s.io', 'selfsubjectreviews'),
  policy({ group: 'system:authenticated', namespace: '*', nonResourcePath: '/healthz', readonly: true }),
].join('\n');

const pki = new TestPKI();
const policyFile = pki.file('policy.jsonl', POLICY + '\n');
// A reader, and a non-resource policy without a namespace: kube's ABAC lists a policy only in
// its namespace (or `*`), so that one is never listed.
const readerFile = pki.file(
  'reader.jsonl',
  [
    policy({ user: 'alice', namespace: 'default', resource: '*', apiGroup: '*', readonly: true }),
    policy({ user: 'alice', nonResourcePath: '/version', readonly: true }),
  ].join('\n') + '\n',
);
afterAll(() => pki.cleanup());

const ABAC = ['--authorization-mode=ABAC', `--authorization-policy-file=${policyFile}`];
const NO_MATCH = 'No policy matched.';

const ssar = (spec: Json, extra: Json = {}) => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SelfSubjectAccessReview',
  spec,
  ...extra,
});
const podAttrs = (verb: string, namespace = 'default') => ({
  resourceAttributes: { namespace, verb, resource: 'pods' },
});
const lsar = (spec: Json, extra: Json = {}) => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'LocalSubjectAccessReview',
  spec,
  ...extra,
});
const ssrr = (namespace?: string) => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SelfSubjectRulesReview',
  spec: namespace === undefined ? {} : { namespace },
});
const ssr = (version: string) => ({
  apiVersion: `authentication.k8s.io/${version}`,
  kind: 'SelfSubjectReview',
});

const invalid = (message: string) => ({
  reason: 'Invalid',
  code: 422,
  message: `.authorization.k8s.io "" is invalid: ${message}`,
});

describe('self reviews answered by ABAC', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        ...ABAC,
        '--runtime-config=authentication.k8s.io/v1beta1=true,authentication.k8s.io/v1alpha1=true',
      ],
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const asAlice = (path: string, body: unknown) => server.request('POST', path, { body, token: USER_TOKEN });

  describe('SelfSubjectAccessReview', () => {
    it('answers for the caller and echoes the request', async () => {
      const reads = await asAlice(SSARS, ssar(podAttrs('list')));
      expect(reads.status).toBe(201);
      expect(reads.json).toEqual({
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: podAttrs('list'),
        status: { allowed: true },
      });
      const answers = await Promise.all(
        [
          podAttrs('create'),
          podAttrs('get', 'platform-system'),
          { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
          { nonResourceAttributes: { path: '/metrics', verb: 'get' } },
        ].map(async (spec) => ((await asAlice(SSARS, ssar(spec))).json as Json)['status']),
      );
      expect(answers).toEqual([
        { allowed: false, reason: NO_MATCH },
        { allowed: false, reason: NO_MATCH },
        { allowed: true },
        { allowed: false, reason: NO_MATCH },
      ]);
      // The same question from a system:masters member is allowed by the short-circuit.
      const admin = await server.request('POST', SSARS, { body: ssar(podAttrs('create')) });
      expect((admin.json as Json)['status']).toEqual({ allowed: true });
    });

    it('refuses invalid reviews with the real 422s', async () => {
      const both = await asAlice(
        SSARS,
        ssar({ ...podAttrs('get'), nonResourceAttributes: { path: '/healthz', verb: 'get' } }),
      );
      expect(both.status).toBe(422);
      expect(both.json).toMatchObject(
        invalid(
          'spec.nonResourceAttributes: Invalid value: {"Path":"/healthz","Verb":"get"}: cannot be specified in combination with resourceAttributes',
        ),
      );
      const neither = await asAlice(SSARS, ssar({}));
      expect(neither.json).toMatchObject(
        invalid(
          'spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
        ),
      );
      const named = await asAlice(SSARS, ssar(podAttrs('get'), { metadata: { name: 'x' } }));
      expect(named.status).toBe(422);
      expect((named.json as Json)['message']).toMatch(
        /^\.authorization\.k8s\.io "" is invalid: metadata: Invalid value: .*"name":"x".*: must be empty$/,
      );
      expect((await asAlice(SSARS, { ...ssar(podAttrs('get')), kind: 'TokenReview' })).status).toBe(400);
      expect((await server.request('GET', SSARS)).status).toBe(405);
    });
  });

  describe('LocalSubjectAccessReview', () => {
    it('answers for the user it names in the path namespace', async () => {
      const body = lsar({ user: 'alice', groups: ['dev'], ...podAttrs('list') });
      const r = await asAlice(lsars('default'), body);
      expect(r.status).toBe(201);
      expect(r.json).toEqual({
        kind: 'LocalSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { namespace: 'default', creationTimestamp: null },
        spec: body.spec,
        status: { allowed: true },
      });
      const bob = await asAlice(lsars('default'), lsar({ user: 'bob', ...podAttrs('list') }));
      expect((bob.json as Json)['status']).toEqual({ allowed: false, reason: NO_MATCH });
    });

    it('refuses attributes of another namespace, non-resource attributes and a conflicting namespace', async () => {
      const other = await asAlice(lsars('default'), lsar({ user: 'alice', ...podAttrs('get', 'other') }));
      expect(other.status).toBe(422);
      expect(other.json).toMatchObject(
        invalid('spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace'),
      );
      const nonResource = await asAlice(
        lsars('default'),
        lsar({ user: 'alice', nonResourceAttributes: { path: '/healthz', verb: 'get' } }),
      );
      expect(nonResource.json).toMatchObject(
        invalid(
          'spec.nonResourceAttributes: Invalid value: {"Path":"/healthz","Verb":"get"}: disallowed on this kind of request',
        ),
      );
      const nobody = await asAlice(lsars('default'), lsar(podAttrs('get')));
      expect(nobody.json).toMatchObject(
        invalid('spec.user: Invalid value: "": at least one of user or group must be specified'),
      );
      const conflicting = await asAlice(
        lsars('default'),
        lsar({ user: 'alice', ...podAttrs('get') }, { metadata: { namespace: 'other' } }),
      );
      expect(conflicting.status).toBe(400);
      expect(conflicting.json).toMatchObject({
        reason: 'BadRequest',
        message: 'the namespace of the provided object does not match the namespace sent on the request',
      });
      // Cluster-scoped, the resource is not there (asked by admin, who passes authorization).
      const clusterWide = await server.request('POST', `${AUTHZ}/localsubjectaccessreviews`, {
        body: lsar({ user: 'a', ...podAttrs('get') }),
      });
      expect(clusterWide.status).toBe(404);
    });

    it('is authorized in the namespace it is posted to', async () => {
      const r = await asAlice(lsars('qa'), lsar({ user: 'alice', ...podAttrs('get', 'qa') }));
      expect(r.text).toBe(
        statusText(
          403,
          'Forbidden',
          `localsubjectaccessreviews.authorization.k8s.io is forbidden: User "alice" cannot create resource "localsubjectaccessreviews" in API group "authorization.k8s.io" in the namespace "qa": ${NO_MATCH}`,
          { group: 'authorization.k8s.io', kind: 'localsubjectaccessreviews' },
        ),
      );
    });
  });

  describe('SelfSubjectRulesReview', () => {
    const selfRules = [
      { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
      { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
      { verbs: ['*'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    ];
    const healthz = [{ verbs: ['get', 'list', 'watch'], nonResourceURLs: ['/healthz'] }];

    it("lists the caller's ABAC policies in the namespace as rules (a new object, spec not echoed)", async () => {
      const r = await asAlice(SSRRS, ssrr('default'));
      expect(r.status).toBe(201);
      expect(r.json).toEqual({
        kind: 'SelfSubjectRulesReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: {},
        status: {
          resourceRules: [
            { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] },
            { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'] },
            ...selfRules,
          ],
          nonResourceRules: healthz,
          incomplete: false,
        },
      });
      const qa = await asAlice(SSRRS, ssrr('qa'));
      expect((qa.json as Json)['status']).toEqual({
        resourceRules: selfRules,
        nonResourceRules: healthz,
        incomplete: false,
      });
    });

    it('lists nothing for system:masters under ABAC: the short-circuit has no rules to list', async () => {
      const r = await server.request('POST', SSRRS, { body: ssrr('default') });
      expect((r.json as Json)['status']).toEqual({
        resourceRules: selfRules,
        nonResourceRules: healthz,
        incomplete: false,
      });
    });

    it('refuses a review without a namespace', async () => {
      for (const body of [ssrr(), ssrr('')]) {
        const r = await asAlice(SSRRS, body);
        expect(r.text).toBe(statusText(400, 'BadRequest', 'no namespace on request'));
      }
    });
  });

  describe('SelfSubjectReview', () => {
    it.each(['v1', 'v1beta1', 'v1alpha1'])('%s answers with the caller as authenticated', async (version) => {
      const before = Date.now();
      const r = await asAlice(ssrs(version), ssr(version));
      expect(r.status).toBe(201);
      const body = r.json as { metadata: { creationTimestamp: string } };
      expect(body).toEqual({
        kind: 'SelfSubjectReview',
        apiVersion: `authentication.k8s.io/${version}`,
        metadata: {
          creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) as unknown,
        },
        status: {
          userInfo: { username: 'alice', uid: 'uid-alice', groups: ['dev', 'qa', 'system:authenticated'] },
        },
      });
      // Created when asked (whole seconds).
      expect(Date.parse(body.metadata.creationTimestamp)).toBeGreaterThanOrEqual(
        Math.floor(before / 1000) * 1000,
      );
    });

    it('refuses a body of another kind, and every other verb', async () => {
      const r = await asAlice(ssrs('v1'), { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview' });
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ reason: 'BadRequest' });
      expect((await server.request('GET', ssrs('v1'))).status).toBe(405);
      const strict = await asAlice(`${ssrs('v1beta1')}?fieldValidation=Strict`, {
        ...ssr('v1beta1'),
        bogus: 1,
      });
      expect(strict.json).toMatchObject({
        code: 400,
        message:
          'SelfSubjectReview in version "v1beta1" cannot be handled as a SelfSubjectReview: strict decoding error: unknown field "bogus"',
      });
    });

    it('discovery lists the enabled versions, v1 preferred', async () => {
      const group = (await server.request('GET', '/apis/authentication.k8s.io')).json as Json;
      expect(group['versions']).toEqual([
        { groupVersion: 'authentication.k8s.io/v1', version: 'v1' },
        { groupVersion: 'authentication.k8s.io/v1beta1', version: 'v1beta1' },
        { groupVersion: 'authentication.k8s.io/v1alpha1', version: 'v1alpha1' },
      ]);
      expect(group['preferredVersion']).toEqual({ groupVersion: 'authentication.k8s.io/v1', version: 'v1' });
      for (const version of ['v1beta1', 'v1alpha1']) {
        const list = (await server.request('GET', `/apis/authentication.k8s.io/${version}`)).json as Json;
        expect(list['resources']).toEqual([
          {
            name: 'selfsubjectreviews',
            singularName: 'selfsubjectreview',
            namespaced: false,
            kind: 'SelfSubjectReview',
            verbs: ['create'],
          },
        ]);
      }
    });

    it('OpenAPI describes every review', async () => {
      const paths = async (gv: string) =>
        (
          (await server.request('GET', `/openapi/v3/apis/${gv}`)).json as {
            paths: Record<string, Record<string, { operationId?: string }>>;
          }
        ).paths;
      const authz = await paths('authorization.k8s.io/v1');
      expect(authz['/apis/authorization.k8s.io/v1/selfsubjectaccessreviews']?.['post']?.operationId).toBe(
        'createAuthorizationV1SelfSubjectAccessReview',
      );
      expect(authz['/apis/authorization.k8s.io/v1/selfsubjectrulesreviews']?.['post']?.operationId).toBe(
        'createAuthorizationV1SelfSubjectRulesReview',
      );
      expect(
        authz['/apis/authorization.k8s.io/v1/namespaces/{namespace}/localsubjectaccessreviews']?.['post']
          ?.operationId,
      ).toBe('createAuthorizationV1NamespacedLocalSubjectAccessReview');
      const authn = await paths('authentication.k8s.io/v1');
      expect(authn['/apis/authentication.k8s.io/v1/selfsubjectreviews']?.['post']?.operationId).toBe(
        'createAuthenticationV1SelfSubjectReview',
      );
      const beta = await paths('authentication.k8s.io/v1beta1');
      expect(beta['/apis/authentication.k8s.io/v1beta1/selfsubjectreviews']?.['post']?.operationId).toBe(
        'createAuthenticationV1beta1SelfSubjectReview',
      );
    });
  });
});

describe.each([
  [
    'AlwaysAllow',
    [] as string[],
    {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    },
  ],
  [
    'AlwaysDeny',
    ['--authorization-mode=AlwaysDeny'],
    { resourceRules: [], nonResourceRules: [], incomplete: false },
  ],
  [
    'AlwaysDeny,ABAC',
    ['--authorization-mode=AlwaysDeny,ABAC', `--authorization-policy-file=${readerFile}`],
    {
      resourceRules: [{ verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [],
      incomplete: false,
    },
  ],
])('SelfSubjectRulesReview under --authorization-mode=%s', (_mode, args, expected) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({ args });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('unions the rules of every mode in order', async () => {
    // Asked by admin as alice in system:masters, so that the review itself passes even
    // AlwaysDeny; the rules listed are alice's (the short-circuit lists none).
    const r = await server.request('POST', SSRRS, {
      body: ssrr('default'),
      headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': 'system:masters' },
    });
    expect(r.status).toBe(201);
    expect((r.json as Json)['status']).toEqual(expected);
  });
});
