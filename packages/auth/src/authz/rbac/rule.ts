/**
 * Whether one PolicyRule allows a request (kube's RuleAllows and the rbac/v1 evaluation
 * helpers): `*` matches any verb, group or resource; a `*` then `/status` matches that
 * subresource of any resource; a rule with resourceNames never matches a request without a
 * name; non-resource URLs are exact or a prefix ending in `*`.
 */
import type { Attributes } from '../types.js';
import type { PolicyRule } from './types.js';

const ALL = '*';

function has(set: readonly string[] | undefined, value: string): boolean {
  return set !== undefined && set.includes(value);
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return has(rule.verbs, ALL) || has(rule.verbs, verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return has(rule.apiGroups, ALL) || has(rule.apiGroups, group);
}

/** `combined` is `resource` or `resource/subresource`. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (
      subresource !== '' &&
      r.length === subresource.length + 2 &&
      r.startsWith('*/') &&
      r.endsWith(subresource)
    )
      return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** An entry ending in `*` is a prefix (`/healthz*`); `*` alone is every path. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === ALL || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(attrs: Attributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, attrs.verb)) return false;
  if (!attrs.isResourceRequest) return nonResourceURLMatches(rule, attrs.path);
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return (
    apiGroupMatches(rule, attrs.apiGroup) &&
    resourceMatches(rule, combined, attrs.subresource) &&
    resourceNameMatches(rule, attrs.name)
  );
}
