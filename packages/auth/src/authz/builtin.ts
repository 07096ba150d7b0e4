import { SYSTEM_PRIVILEGED_GROUP } from '../authn/types.js';
import type { Attributes, Authorizer, Decision, RuleResolution, RuleResolver } from './types.js';

const ALLOW: Decision = { decision: 'allow', reason: '' };
const NO_OPINION: Decision = { decision: 'noOpinion', reason: '' };

const EVERYTHING: RuleResolution = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};
const NOTHING: RuleResolution = { resourceRules: [], nonResourceRules: [], incomplete: false };

/** --authorization-mode AlwaysAllow: everyone holds every rule. */
export class AlwaysAllowAuthorizer implements Authorizer, RuleResolver {
  authorize(): Promise<Decision> {
    return Promise.resolve(ALLOW);
  }

  rulesFor(): Promise<RuleResolution> {
    return Promise.resolve(EVERYTHING);
  }
}

/**
 * --authorization-mode AlwaysDeny. Like kube it answers NoOpinion (with its reason) rather than
 * Deny, so an authorizer later in the chain can still allow.
 */
export class AlwaysDenyAuthorizer implements Authorizer, RuleResolver {
  authorize(): Promise<Decision> {
    return Promise.resolve({ decision: 'noOpinion', reason: 'Everything is forbidden.' });
  }

  rulesFor(): Promise<RuleResolution> {
    return Promise.resolve(NOTHING);
  }
}

/** Allows members of the given groups outright; kube puts one for system:masters in front of the chain. */
export class PrivilegedGroupAuthorizer implements Authorizer {
  constructor(private readonly groups: readonly string[] = [SYSTEM_PRIVILEGED_GROUP]) {}

  authorize(attrs: Attributes): Promise<Decision> {
    const privileged = attrs.user.groups.some((g) => this.groups.includes(g));
    return Promise.resolve(privileged ? ALLOW : NO_OPINION);
  }
}

/**
 * Asks each authorizer in order; the first Allow or Deny is the answer. Otherwise NoOpinion with
 * the reasons joined by newlines (and any errors aggregated), which the filter turns into a 403
 * (or a 500 when there was an error).
 */
export class UnionAuthorizer implements Authorizer {
  constructor(private readonly authorizers: readonly Authorizer[]) {}

  async authorize(attrs: Attributes): Promise<Decision> {
    const reasons: string[] = [];
    const errors: string[] = [];
    for (const a of this.authorizers) {
      const d = await a.authorize(attrs);
      if (d.error !== undefined) errors.push(d.error);
      if (d.reason !== '') reasons.push(d.reason);
      if (d.decision !== 'noOpinion') return d;
    }
    const reason = reasons.join('\n');
    const unique = [...new Set(errors)];
    if (unique.length === 0) return { decision: 'noOpinion', reason };
    return {
      decision: 'noOpinion',
      reason,
      error: unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`,
    };
  }
}
