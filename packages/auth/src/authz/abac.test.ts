import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config-error.js';
import { TestPKI } from '@keel/testing';
import { ABACAuthorizer, loadPolicyFile, policyMatches } from './abac.js';
import { decodePolicyLine, PolicyDecodeError } from './abac-policy.js';
import type { Attributes } from './types.js';

const pki = new TestPKI();
afterAll(() => pki.cleanup());

const AUTH = 'system:authenticated';
const users = {
  alice: { name: 'alice', uid: '', groups: [AUTH], extra: {} },
  bob: { name: 'bob', uid: '', groups: ['dev', AUTH], extra: {} },
  anonymous: { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} },
  // Groups are compared literally: a user without system:authenticated is not matched by `*`.
  bare: { name: 'bare', uid: '', groups: [], extra: {} },
};
type Who = keyof typeof users;

function res(who: Who, verb: string, resource: string, namespace = '', apiGroup = ''): Attributes {
  return {
    user: users[who],
    verb,
    isResourceRequest: true,
    path: '/x',
    namespace,
    apiGroup,
    apiVersion: 'v1',
    resource,
    subresource: '',
    name: '',
  };
}
function path(who: Who, verb: string, p: string): Attributes {
  return {
    user: users[who],
    verb,
    isResourceRequest: false,
    path: p,
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
}
const v1 = (spec: object) =>
  JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });

describe('ABAC matching (v1beta1)', () => {
  it.each<[string, string, Attributes, boolean]>([
    // subject
    [
      'user match',
      v1({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
      res('alice', 'create', 'pods', 'ns'),
      true,
    ],
    [
      'user mismatch',
      v1({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'get', 'pods', 'ns'),
      false,
    ],
    [
      'group match',
      v1({ group: 'dev', namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'delete', 'pods', 'ns'),
      true,
    ],
    [
      'group mismatch',
      v1({ group: 'dev', namespace: '*', resource: '*', apiGroup: '*' }),
      res('alice', 'get', 'pods', 'ns'),
      false,
    ],
    [
      'user and group must both match',
      v1({ user: 'bob', group: 'ops', namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'get', 'pods', 'ns'),
      false,
    ],
    [
      'user and group both matching',
      v1({ user: 'bob', group: 'dev', namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'get', 'pods', 'ns'),
      true,
    ],
    [
      'neither user nor group never matches',
      v1({ namespace: '*', resource: '*', apiGroup: '*' }),
      res('alice', 'get', 'pods', 'ns'),
      false,
    ],
    [
      'user * means authenticated users',
      v1({ user: '*', namespace: '*', resource: '*', apiGroup: '*' }),
      res('alice', 'get', 'pods', 'ns'),
      true,
    ],
    [
      'user * excludes anonymous',
      v1({ user: '*', namespace: '*', resource: '*', apiGroup: '*' }),
      res('anonymous', 'get', 'pods', 'ns'),
      false,
    ],
    [
      'group * excludes anonymous',
      v1({ group: '*', namespace: '*', resource: '*', apiGroup: '*' }),
      res('anonymous', 'get', 'pods', 'ns'),
      false,
    ],
    [
      'user * needs the system:authenticated group',
      v1({ user: '*', namespace: '*', resource: '*', apiGroup: '*' }),
      res('bare', 'get', 'pods', 'ns'),
      false,
    ],
    [
      'system:unauthenticated for anonymous',
      v1({ group: 'system:unauthenticated', namespace: '*', resource: '*', apiGroup: '*' }),
      res('anonymous', 'get', 'pods', 'ns'),
      true,
    ],
    // verbs
    [
      'readonly allows get',
      v1({ user: 'bob', readonly: true, namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'get', 'pods', 'ns'),
      true,
    ],
    [
      'readonly allows list',
      v1({ user: 'bob', readonly: true, namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'list', 'pods', 'ns'),
      true,
    ],
    [
      'readonly allows watch',
      v1({ user: 'bob', readonly: true, namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'watch', 'pods', 'ns'),
      true,
    ],
    [
      'readonly blocks create',
      v1({ user: 'bob', readonly: true, namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'create', 'pods', 'ns'),
      false,
    ],
    [
      'readonly blocks patch',
      v1({ user: 'bob', readonly: true, namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'patch', 'pods', 'ns'),
      false,
    ],
    [
      'readonly blocks deletecollection',
      v1({ user: 'bob', readonly: true, namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'deletecollection', 'pods', 'ns'),
      false,
    ],
    [
      'not readonly allows update',
      v1({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'update', 'pods', 'ns'),
      true,
    ],
    // resources
    [
      'namespace match',
      v1({ user: 'bob', namespace: 'ns', resource: '*', apiGroup: '*' }),
      res('bob', 'get', 'pods', 'ns'),
      true,
    ],
    [
      'namespace mismatch',
      v1({ user: 'bob', namespace: 'ns', resource: '*', apiGroup: '*' }),
      res('bob', 'get', 'pods', 'other'),
      false,
    ],
    [
      'empty namespace: cluster scope only',
      v1({ user: 'bob', resource: 'nodes', apiGroup: '' }),
      res('bob', 'get', 'nodes'),
      true,
    ],
    [
      'empty namespace does not match a namespace',
      v1({ user: 'bob', resource: '*', apiGroup: '*' }),
      res('bob', 'get', 'pods', 'ns'),
      false,
    ],
    [
      'namespace * covers cluster scope',
      v1({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*' }),
      res('bob', 'get', 'nodes'),
      true,
    ],
    [
      'resource mismatch',
      v1({ user: 'bob', namespace: '*', resource: 'pods', apiGroup: '*' }),
      res('bob', 'get', 'events', 'ns'),
      false,
    ],
    [
      'apiGroup match',
      v1({ user: 'bob', namespace: '*', resource: '*', apiGroup: 'events.k8s.io' }),
      res('bob', 'get', 'events', 'ns', 'events.k8s.io'),
      true,
    ],
    [
      'apiGroup mismatch',
      v1({ user: 'bob', namespace: '*', resource: '*', apiGroup: '' }),
      res('bob', 'get', 'events', 'ns', 'events.k8s.io'),
      false,
    ],
    [
      'apiGroup empty is the core group',
      v1({ user: 'bob', namespace: '*', resource: '*', apiGroup: '' }),
      res('bob', 'get', 'pods', 'ns'),
      true,
    ],
    [
      'missing apiGroup matches only core',
      v1({ user: 'bob', namespace: '*', resource: '*' }),
      res('bob', 'get', 'events', 'ns', 'events.k8s.io'),
      false,
    ],
    [
      'a resource policy does not cover paths',
      v1({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*' }),
      path('bob', 'get', '/healthz'),
      false,
    ],
    // non-resource paths
    ['path *', v1({ user: 'bob', nonResourcePath: '*' }), path('bob', 'get', '/anything'), true],
    ['path exact', v1({ user: 'bob', nonResourcePath: '/version' }), path('bob', 'get', '/version'), true],
    [
      'path exact mismatch',
      v1({ user: 'bob', nonResourcePath: '/version' }),
      path('bob', 'get', '/version/'),
      false,
    ],
    ['path prefix', v1({ user: 'bob', nonResourcePath: '/livez*' }), path('bob', 'get', '/livez/etcd'), true],
    [
      'path prefix covers the bare path',
      v1({ user: 'bob', nonResourcePath: '/livez*' }),
      path('bob', 'get', '/livez'),
      true,
    ],
    [
      'path prefix mismatch',
      v1({ user: 'bob', nonResourcePath: '/livez/*' }),
      path('bob', 'get', '/livez'),
      false,
    ],
    [
      'several stars trimmed',
      v1({ user: 'bob', nonResourcePath: '/api**' }),
      path('bob', 'get', '/apis'),
      true,
    ],
    [
      'a star inside is literal',
      v1({ user: 'bob', nonResourcePath: '/a*/b' }),
      path('bob', 'get', '/ax/b'),
      false,
    ],
    [
      'readonly path blocks post',
      v1({ user: 'bob', readonly: true, nonResourcePath: '*' }),
      path('bob', 'post', '/x'),
      false,
    ],
    [
      'a path policy does not cover resources',
      v1({ user: 'bob', nonResourcePath: '*' }),
      res('bob', 'get', 'pods', 'ns'),
      false,
    ],
    [
      'anonymous on /livez',
      v1({ group: 'system:unauthenticated', readonly: true, nonResourcePath: '/livez' }),
      path('anonymous', 'get', '/livez'),
      true,
    ],
  ])('%s', (_name, line, attrs, expected) => {
    expect(policyMatches(decodePolicyLine(line).spec, attrs)).toBe(expected);
  });
});

describe('ABAC unversioned (v0) lines', () => {
  it.each<[string, string, Attributes, boolean]>([
    [
      'a user with no namespace or resource covers everything',
      '{"user":"bob"}',
      res('bob', 'create', 'events', 'ns', 'events.k8s.io'),
      true,
    ],
    ['... including paths', '{"user":"bob"}', path('bob', 'post', '/x'), true],
    [
      'no user or group: every authenticated user',
      '{"readonly":true}',
      res('alice', 'get', 'pods', 'ns'),
      true,
    ],
    ['... but not anonymous', '{"readonly":true}', res('anonymous', 'get', 'pods', 'ns'), false],
    ['user *: authenticated users', '{"user":"*"}', res('anonymous', 'get', 'pods', 'ns'), false],
    [
      'a namespace limits resources and excludes paths',
      '{"user":"bob","namespace":"ns"}',
      path('bob', 'get', '/x'),
      false,
    ],
    [
      'empty resource matches every resource',
      '{"user":"bob","namespace":"ns"}',
      res('bob', 'get', 'anything', 'ns'),
      true,
    ],
    [
      'empty namespace matches every namespace',
      '{"user":"bob","resource":"pods"}',
      res('bob', 'get', 'pods', 'any'),
      true,
    ],
    [
      'every API group',
      '{"user":"bob","resource":"events"}',
      res('bob', 'get', 'events', 'ns', 'events.k8s.io'),
      true,
    ],
  ])('%s', (_name, line, attrs, expected) => {
    const decoded = decodePolicyLine(line);
    expect(decoded.unversioned).toBe(true);
    expect(policyMatches(decoded.spec, attrs)).toBe(expected);
  });

  it('accepts the explicit v0 version without counting it as unversioned', () => {
    const d = decodePolicyLine(
      '{"apiVersion":"abac.authorization.kubernetes.io/v0","kind":"Policy","user":"bob"}',
    );
    expect(d).toEqual({
      unversioned: false,
      spec: expect.objectContaining({ user: 'bob', nonResourcePath: '*' }) as unknown,
    });
  });
});

describe('decodePolicyLine errors', () => {
  it.each([
    ['not JSON', '{user:bob}', /^couldn't get version\/kind; json parse error: /],
    [
      'an array',
      '[1]',
      /^couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct/,
    ],
    [
      'a number apiVersion',
      '{"apiVersion":1,"kind":"Policy"}',
      "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string",
    ],
    [
      'an unknown version',
      '{"apiVersion":"abac.authorization.kubernetes.io/v2","kind":"Policy"}',
      'no kind "Policy" is registered for version "abac.authorization.kubernetes.io/v2"',
    ],
    [
      'an unknown kind',
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Rule"}',
      'no kind "Rule" is registered for version "abac.authorization.kubernetes.io/v1beta1"',
    ],
    [
      'a string readonly',
      v1({ user: 'bob', readonly: 'true' }),
      'json: cannot unmarshal string into Go struct field PolicySpec.spec.readonly of type bool',
    ],
    [
      'a number user',
      v1({ user: 7 }),
      'json: cannot unmarshal number into Go struct field PolicySpec.spec.user of type string',
    ],
    [
      'a string spec',
      JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec: 'x' }),
      'json: cannot unmarshal string into Go struct field Policy.spec of type v1beta1.PolicySpec',
    ],
    [
      'a v0 bool user',
      '{"user":true}',
      'json: cannot unmarshal bool into Go struct field Policy.user of type string',
    ],
  ])('%s', (_name, line, message) => {
    expect(() => decodePolicyLine(line)).toThrow(PolicyDecodeError);
    expect(() => decodePolicyLine(line)).toThrow(message);
  });
});

describe('loadPolicyFile and ABACAuthorizer', () => {
  const file = [
    '# comment',
    '',
    '   # indented comment',
    v1({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
    '  ',
    `${v1({ group: 'system:unauthenticated', readonly: true, nonResourcePath: '/version' })}\r`,
    '{"user":"bob","readonly":true}',
  ].join('\n');

  it('skips comments and blank lines, warns about unversioned lines', () => {
    const path = pki.file('policy.jsonl', file);
    const loaded = loadPolicyFile(path);
    expect(loaded.policies).toHaveLength(3);
    expect(loaded.warnings).toEqual([
      `Policy file ${path} contained unversioned rules, read in the unversioned (v0) ABAC format.`,
    ]);
  });

  it.each<[string, Attributes, string, string]>([
    ['alice anywhere', res('alice', 'delete', 'pods', 'ns'), 'allow', ''],
    ['anonymous /version', path('anonymous', 'get', '/version'), 'allow', ''],
    ['anonymous /livez', path('anonymous', 'get', '/livez'), 'noOpinion', 'No policy matched.'],
    ['bob reads', res('bob', 'list', 'events', 'ns', 'events.k8s.io'), 'allow', ''],
    ['bob writes', res('bob', 'create', 'events', 'ns', 'events.k8s.io'), 'noOpinion', 'No policy matched.'],
  ])('%s', async (_name, attrs, decision, reason) => {
    const authz = new ABACAuthorizer(loadPolicyFile(pki.file('p.jsonl', file)).policies);
    expect(await authz.authorize(attrs)).toEqual({ decision, reason });
  });

  it('names the file, line and text of a bad line', () => {
    const path = pki.file(
      'bad.jsonl',
      `# ok\n${v1({ user: 'a' })}\n{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"readonly":"yes"}}\n`,
    );
    expect(() => loadPolicyFile(path)).toThrow(
      new ConfigError(
        `--authorization-policy-file: error reading policy file ${path}, line 3: ` +
          '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"readonly":"yes"}}: ' +
          'json: cannot unmarshal string into Go struct field PolicySpec.spec.readonly of type bool',
      ),
    );
  });

  it('names the flag and path of an unreadable file', () => {
    const missing = join(pki.dir, 'none.jsonl');
    expect(() => loadPolicyFile(missing)).toThrow(
      new ConfigError(`--authorization-policy-file: open ${missing}: no such file or directory`),
    );
  });

  it('an empty file allows nothing', async () => {
    const authz = new ABACAuthorizer(loadPolicyFile(pki.file('empty.jsonl', '')).policies);
    expect(await authz.authorize(res('alice', 'get', 'pods', 'ns'))).toEqual({
      decision: 'noOpinion',
      reason: 'No policy matched.',
    });
  });
});
