/**
 * The static rules every node agent holds (kube's bootstrappolicy.NodeRules, with the feature
 * gates of the platform version Keel reports), and kube's rbac.RulesAllow over them: requests
 * the graph does not subdivide are allowed exactly when one of these rules covers them.
 */
import type { PolicyRule } from '../rbac/types.js';
import type { Attributes } from '../types.js';

const READ = ['get', 'list', 'watch'];

const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({
  verbs,
  apiGroups,
  resources,
});

export const NODE_RULES: readonly PolicyRule[] = [
  // Checking API access; these creates change nothing.
  rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
  rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews', 'localsubjectaccessreviews']),
  // Service environment variables for the pods it runs.
  rule(READ, [''], ['services']),
  // Registering and reporting; NodeRestriction limits a node to its own object.
  rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
  rule(['update', 'patch'], [''], ['nodes/status']),
  rule(['update', 'patch'], [''], ['nodes']),
  rule(['create', 'update', 'patch'], [''], ['events']),
  rule(READ, [''], ['pods']),
  // Mirror pods; NodeRestriction limits them to pods bound to the node.
  rule(['create', 'delete'], [''], ['pods']),
  rule(['update', 'patch'], [''], ['pods/status']),
  rule(['create'], [''], ['pods/eviction']),
  // Secrets, configmaps, claims and volumes: the graph narrows these to what the node's pods use.
  rule(READ, [''], ['secrets', 'configmaps']),
  rule(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
  rule(['get'], [''], ['endpoints']),
  // Client certificate rotation.
  rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
  rule(['get', 'create', 'update', 'patch', 'delete'], ['coordination.k8s.io'], ['leases']),
  rule(['get'], ['storage.k8s.io'], ['volumeattachments']),
  rule(['get', 'update', 'patch'], [''], ['persistentvolumeclaims/status']),
  rule(['create'], [''], ['serviceaccounts/token']),
  rule(READ, ['storage.k8s.io'], ['csidrivers']),
  rule(['get', 'create', 'update', 'patch', 'delete'], ['storage.k8s.io'], ['csinodes']),
  rule(READ, ['node.k8s.io'], ['runtimeclasses']),
];

function has(list: readonly string[] | undefined, value: string): boolean {
  return (list ?? []).some((v) => v === '*' || v === value);
}

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some(
    (r) => r === '*' || r === combined || (subresource !== '' && r === `*/${subresource}`),
  );
}

function urlMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some(
    (u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))),
  );
}

/** Whether one rule covers the request (kube's rbac.RuleAllows). */
export function ruleAllows(attrs: Attributes, rule: PolicyRule): boolean {
  if (!has(rule.verbs, attrs.verb)) return false;
  if (!attrs.isResourceRequest) return urlMatches(rule, attrs.path);
  const combined = attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
  const names = rule.resourceNames ?? [];
  return (
    has(rule.apiGroups, attrs.apiGroup) &&
    resourceMatches(rule, combined, attrs.subresource) &&
    (names.length === 0 || names.includes(attrs.name))
  );
}

export function rulesAllow(attrs: Attributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((r) => ruleAllows(attrs, r));
}
