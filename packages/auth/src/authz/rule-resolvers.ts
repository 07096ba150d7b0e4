import type { UserInfo } from '../authn/types.js';
import type {
  Authorizer,
  NonResourceRuleInfo,
  ResourceRuleInfo,
  RuleResolution,
  RuleResolver,
} from './types.js';

/** What an authorizer that cannot list its rules contributes: nothing, and the list is incomplete. */
const CANNOT_LIST: RuleResolver = {
  rulesFor: () => Promise.resolve({ resourceRules: [], nonResourceRules: [], incomplete: true }),
};

function isRuleResolver(a: unknown): a is RuleResolver {
  return typeof (a as Partial<RuleResolver>).rulesFor === 'function';
}

/** The authorizer's own resolver, or one that marks the answer incomplete. */
export function ruleResolverOf(authorizer: Authorizer): RuleResolver {
  return isRuleResolver(authorizer) ? authorizer : CANNOT_LIST;
}

/**
 * Every resolver's rules, in chain order (kube's unionAuthzRulesHandler): incomplete when any
 * is, with the errors aggregated as Go prints them (one as is, several as `[a, b]`).
 */
export class UnionRuleResolver implements RuleResolver {
  constructor(private readonly resolvers: readonly RuleResolver[]) {}

  async rulesFor(user: UserInfo, namespace: string): Promise<RuleResolution> {
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    const errors: string[] = [];
    let incomplete = false;
    for (const r of this.resolvers) {
      const got = await r.rulesFor(user, namespace);
      resourceRules.push(...got.resourceRules);
      nonResourceRules.push(...got.nonResourceRules);
      if (got.incomplete) incomplete = true;
      if (got.evaluationError !== undefined) errors.push(got.evaluationError);
    }
    const evaluationError =
      errors.length === 0 ? undefined : errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    return {
      resourceRules,
      nonResourceRules,
      incomplete,
      ...(evaluationError !== undefined ? { evaluationError } : {}),
    };
  }
}
