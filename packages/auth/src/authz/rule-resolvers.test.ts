import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import type { UserInfo } from '../authn/types.js';
import { BuiltInAuthorizationOptions, type AuthorizationConfig } from '../options/authorization-options.js';
import { ABACAuthorizer } from './abac.js';
import type { PolicySpec } from './abac-policy.js';
import { buildAuthorizer } from './build.js';
import { AlwaysAllowAuthorizer, AlwaysDenyAuthorizer } from './builtin.js';
import { ruleResolverOf, UnionRuleResolver } from './rule-resolvers.js';
import type { Authorizer, RuleResolution, RuleResolver } from './types.js';

const alice: UserInfo = { name: 'alice', uid: '', groups: ['dev', 'system:authenticated'], extra: {} };

const spec = (p: Partial<PolicySpec>): PolicySpec => ({
  user: '',
  group: '',
  readonly: false,
  apiGroup: '',
  resource: '',
  namespace: '',
  nonResourcePath: '',
  ...p,
});

/** An authorizer that cannot list its rules (as a webhook cannot). */
const opaque: Authorizer = { authorize: () => Promise.resolve({ decision: 'noOpinion', reason: '' }) };

const failing = (error: string): RuleResolver => ({
  rulesFor: () =>
    Promise.resolve({ resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: error }),
});

describe('ABAC rules', () => {
  const abac = new ABACAuthorizer([
    spec({ user: 'alice', namespace: 'default', resource: '*', apiGroup: '*', readonly: true }),
    spec({ group: 'dev', namespace: '*', resource: 'events', apiGroup: 'events.k8s.io' }),
    spec({ group: 'dev', namespace: '*', nonResourcePath: '/healthz', readonly: true }),
    // No namespace: kube lists it in no namespace, though it allows its path.
    spec({ user: 'alice', nonResourcePath: '/version' }),
    spec({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*' }),
  ]);

  it('lists the policies naming the user or a group of theirs, in the namespace or *', async () => {
    expect(await abac.rulesFor(alice, 'default')).toEqual({
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'], resourceNames: [] },
        { verbs: ['*'], apiGroups: ['events.k8s.io'], resources: ['events'], resourceNames: [] },
      ],
      nonResourceRules: [{ verbs: ['get', 'list', 'watch'], nonResourceURLs: ['/healthz'] }],
      incomplete: false,
    });
    expect((await abac.rulesFor(alice, 'qa')).resourceRules).toEqual([
      { verbs: ['*'], apiGroups: ['events.k8s.io'], resources: ['events'], resourceNames: [] },
    ]);
    expect(await abac.rulesFor({ ...alice, name: 'carol', groups: [] }, 'default')).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
    });
    const allow = buildAuthorizer(config(['--authorization-mode=AlwaysDeny,AlwaysAllow'])).ruleResolver;
    expect((await allow.rulesFor(alice, 'default')).resourceRules).toEqual([
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] },
    ]);
  });
});

describe('UnionRuleResolver', () => {
  it('unions every resolver in order; one that cannot list makes the answer incomplete', async () => {
    const union = new UnionRuleResolver([
      new AlwaysDenyAuthorizer(),
      ruleResolverOf(opaque),
      new AlwaysAllowAuthorizer(),
    ]);
    expect(await union.rulesFor(alice, 'default')).toEqual<RuleResolution>({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: true,
    });
  });

  it('aggregates evaluation errors as Go does', async () => {
    expect((await new UnionRuleResolver([failing('a')]).rulesFor(alice, 'x')).evaluationError).toBe('a');
    const two = await new UnionRuleResolver([
      failing('a'),
      new AlwaysDenyAuthorizer(),
      failing('b'),
    ]).rulesFor(alice, 'x');
    expect(two).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: '[a, b]',
    });
  });
});

function config(argv: string[]): AuthorizationConfig {
  const o = new BuiltInAuthorizationOptions();
  const fss = new NamedFlagSets('test');
  o.addFlags(fss);
  expect(parseArgs(fss, argv).errors).toEqual([]);
  const c: { authorization?: AuthorizationConfig } = {};
  o.applyTo(c);
  if (!c.authorization) throw new Error('no config');
  return c.authorization;
}

describe('buildAuthorizer ruleResolver', () => {
  it('follows --authorization-mode; the system:masters short-circuit lists nothing', async () => {
    const { ruleResolver } = buildAuthorizer(config(['--authorization-mode=AlwaysDeny']));
    const masters = { ...alice, groups: ['system:masters'] };
    expect(await ruleResolver.rulesFor(masters, 'default')).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
    });
    const allow = buildAuthorizer(config(['--authorization-mode=AlwaysDeny,AlwaysAllow'])).ruleResolver;
    expect((await allow.rulesFor(alice, 'default')).resourceRules).toEqual([
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] },
    ]);
  });
});
