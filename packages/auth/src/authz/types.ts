import type { UserInfo } from '../authn/types.js';

/** What is being asked for (kube's authorizer.Attributes). */
export interface Attributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** The request path; what non-resource requests are authorized on. */
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

export interface Decision {
  readonly decision: 'allow' | 'deny' | 'noOpinion';
  /** Why; appended to the 403 message when not empty. */
  readonly reason: string;
  /**
   * An authorizer failure (kube's err): with no allow the filter answers 500. None of the built-in
   * authorizers fail; the field is there for remote ones.
   */
  readonly error?: string;
}

export interface Authorizer {
  authorize(attrs: Attributes): Promise<Decision>;
}

/** Verbs that only read, which every ABAC policy allows (kube's IsReadOnly). */
export function isReadOnly(verb: string): boolean {
  return verb === 'get' || verb === 'list' || verb === 'watch';
}

/** One resource rule a user holds (authorization.k8s.io ResourceRule). */
export interface ResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

/** One non-resource rule a user holds (authorization.k8s.io NonResourceRule). */
export interface NonResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/** What SelfSubjectRulesReview answers for one user in one namespace. */
export interface RuleResolution {
  readonly resourceRules: readonly ResourceRuleInfo[];
  readonly nonResourceRules: readonly NonResourceRuleInfo[];
  /** True when some authorizer in the chain cannot list its rules (webhook, node). */
  readonly incomplete: boolean;
  /** Why the list is incomplete, when an authorizer failed to list (kube's evaluationError). */
  readonly evaluationError?: string;
}

/**
 * Lists the rules a user holds in a namespace (kube's authorizer.RuleResolver). Authorizers that
 * can enumerate their rules (AlwaysAllow, ABAC, RBAC) implement it; the chain unions them.
 */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): Promise<RuleResolution>;
}
