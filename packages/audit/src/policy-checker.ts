/**
 * Which level a request is audited at: kube's policy checker. The first rule that matches wins;
 * no match is level None with the policy-wide stages omitted.
 */
import type { Policy, PolicyRule } from './policy.js';
import type { Level, RequestAttributes, Stage } from './types.js';

export interface AuditDecision {
  readonly level: Level;
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}

export function evaluatePolicy(policy: Policy, attrs: RequestAttributes): AuditDecision {
  for (const rule of policy.rules) {
    if (ruleMatches(rule, attrs)) return rule;
  }
  return { level: 'None', omitStages: policy.omitStages, omitManagedFields: policy.omitManagedFields };
}

function ruleMatches(r: PolicyRule, attrs: RequestAttributes): boolean {
  const user = attrs.user;
  if (r.users.length > 0 && (!user || !r.users.includes(user.name))) return false;
  if (r.userGroups.length > 0 && (!user || !user.groups.some((g) => r.userGroups.includes(g)))) return false;
  if (r.verbs.length > 0 && !r.verbs.includes(attrs.verb)) return false;
  // Namespaces or resources make it a resource rule, non-resource URLs the other kind; neither, both.
  if (r.namespaces.length > 0 || r.resources.length > 0) return resourceMatches(r, attrs);
  if (r.nonResourceURLs.length > 0) {
    return !attrs.isResourceRequest && r.nonResourceURLs.some((spec) => pathMatches(attrs.path, spec));
  }
  return true;
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(r: PolicyRule, attrs: RequestAttributes): boolean {
  if (!attrs.isResourceRequest) return false;
  // A cluster-scoped request has namespace "", which a rule names as "".
  if (r.namespaces.length > 0 && !r.namespaces.includes(attrs.namespace)) return false;
  if (r.resources.length === 0) return true;
  const { resource, subresource, name } = attrs;
  const combined = subresource !== '' ? `${resource}/${subresource}` : resource;
  for (const gr of r.resources) {
    // "*" for any group is section 12's reading (kube's validation refuses it); "" is core.
    if (gr.group !== attrs.apiGroup && gr.group !== '*') continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (subresource !== '' && res.startsWith('*/') && res.slice(2) === subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === resource) return true;
    }
  }
  return false;
}
