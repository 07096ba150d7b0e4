/**
 * --authorization-mode RBAC (kube's RBACAuthorizer over its DefaultRuleResolver): allows when a
 * rule of a role bound to the user (or one of their groups, or their service account) matches;
 * otherwise NoOpinion, whose reason lists the bound roles that could not be found. Decides from
 * the in-memory index only; before its watched copies synced it has no opinion.
 */
import { aggregateMessage, goQuote } from '@keel/apimachinery';
import type { UserInfo } from '../../authn/types.js';
import type {
  Attributes,
  Authorizer,
  Decision,
  NonResourceRuleInfo,
  ResourceRuleInfo,
  RuleResolution,
  RuleResolver,
} from '../types.js';
import { ruleAllows } from './rule.js';
import type { BoundRole, RbacRuleIndex } from './rule-index.js';
import type { PolicyRule, Subject } from './types.js';

const NO_OPINION: Decision = { decision: 'noOpinion', reason: '' };

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount')
    return `${s.kind} ${goQuote(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}

/** The binding an allow came through, as the audit reason names it. */
export function describeBound(b: BoundRole): string {
  const { binding, subject, namespace } = b;
  const ref = `${binding.roleRef.kind} ${goQuote(binding.roleRef.name)}`;
  const name = binding.metadata.name ?? '';
  if (namespace === '')
    return `ClusterRoleBinding ${goQuote(name)} of ${ref} to ${describeSubject(subject, '')}`;
  return `RoleBinding ${goQuote(`${name}/${namespace}`)} of ${ref} to ${describeSubject(subject, namespace)}`;
}

/** The rules a user holds in a namespace and the resolution errors met (kube's RulesFor). */
export interface ResolvedRules {
  readonly rules: PolicyRule[];
  readonly errors: string[];
}

export class RBACAuthorizer implements Authorizer, RuleResolver {
  /** Allow reasons per binding entry (kept until the index is rebuilt): quoting is the costly part. */
  private readonly reasons = new WeakMap<BoundRole, string>();

  constructor(readonly index: RbacRuleIndex) {}

  private allowReason(b: BoundRole): string {
    let reason = this.reasons.get(b);
    if (reason === undefined) this.reasons.set(b, (reason = `RBAC: allowed by ${describeBound(b)}`));
    return reason;
  }

  authorize(attrs: Attributes): Promise<Decision> {
    const bound = this.index.bindingsFor(attrs.user, attrs.namespace);
    if (!bound) return Promise.resolve(NO_OPINION);
    const errors: string[] = [];
    for (const b of bound) {
      const resolved = this.index.roleRules(b.binding.roleRef, b.namespace);
      if ('error' in resolved) {
        errors.push(resolved.error);
        continue;
      }
      for (const rule of resolved.rules)
        if (ruleAllows(attrs, rule))
          return Promise.resolve({ decision: 'allow', reason: this.allowReason(b) });
    }
    if (errors.length === 0) return Promise.resolve(NO_OPINION);
    return Promise.resolve({ decision: 'noOpinion', reason: `RBAC: ${aggregateMessage(errors)}` });
  }

  /** Every rule bound to the user in `namespace` (cluster-wide ones included). */
  resolve(user: UserInfo, namespace: string): ResolvedRules {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    for (const b of this.index.bindingsFor(user, namespace) ?? []) {
      const resolved = this.index.roleRules(b.binding.roleRef, b.namespace);
      if ('error' in resolved) errors.push(resolved.error);
      else rules.push(...resolved.rules);
    }
    return { rules, errors };
  }

  rulesFor(user: UserInfo, namespace: string): Promise<RuleResolution> {
    const { rules, errors } = this.resolve(user, namespace);
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    for (const r of rules) {
      if ((r.resources ?? []).length > 0)
        resourceRules.push({
          verbs: r.verbs ?? [],
          apiGroups: r.apiGroups ?? [],
          resources: r.resources ?? [],
          resourceNames: r.resourceNames ?? [],
        });
      if ((r.nonResourceURLs ?? []).length > 0)
        nonResourceRules.push({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs ?? [] });
    }
    return Promise.resolve({
      resourceRules,
      nonResourceRules,
      incomplete: false,
      ...(errors.length > 0 ? { evaluationError: aggregateMessage(errors) } : {}),
    });
  }
}
