/**
 * rbac.authorization.k8s.io/v1 wire schemas (k8s.io/api/rbac/v1 types.go) and the version's
 * defaults (SetDefaults_*: a binding's roleRef.apiGroup and a User or Group subject's apiGroup
 * default to the RBAC group).
 */
import { rbac } from '@keel/auth';
import { always, list, objectMetaSpec, ptr, str, stringMap, struct, type StructSpec } from '@keel/resource';

const strings = list(str, '[]string');

const policyRule = struct('v1.PolicyRule', {
  verbs: always(strings),
  apiGroups: strings,
  resources: strings,
  resourceNames: strings,
  nonResourceURLs: strings,
});

const labelSelector = struct('v1.LabelSelector', {
  matchLabels: stringMap,
  matchExpressions: list(
    struct('v1.LabelSelectorRequirement', { key: always(str), operator: always(str), values: strings }),
    '[]v1.LabelSelectorRequirement',
  ),
});

const rules = always(list(policyRule, '[]v1.PolicyRule'));

export const roleSpec: StructSpec = struct('v1.Role', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  rules,
});

export const clusterRoleSpec: StructSpec = struct('v1.ClusterRole', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  rules,
  aggregationRule: ptr(
    struct('v1.AggregationRule', { clusterRoleSelectors: list(labelSelector, '[]v1.LabelSelector') }),
  ),
});

const bindingFields = {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  subjects: list(
    struct('v1.Subject', { kind: always(str), apiGroup: str, name: always(str), namespace: str }),
    '[]v1.Subject',
  ),
  roleRef: struct('v1.RoleRef', { apiGroup: always(str), kind: always(str), name: always(str) }),
};

export const roleBindingSpec: StructSpec = struct('v1.RoleBinding', bindingFields);
export const clusterRoleBindingSpec: StructSpec = struct('v1.ClusterRoleBinding', bindingFields);

function defaultSubject(s: rbac.Subject): void {
  if (s.apiGroup) return;
  if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = rbac.RBAC_GROUP;
}

/** SetDefaults_RoleBinding / SetDefaults_ClusterRoleBinding with their subjects. */
export function defaultBinding(b: Pick<rbac.RoleBinding, 'roleRef' | 'subjects'>): void {
  b.roleRef ??= { apiGroup: '', kind: '', name: '' };
  b.roleRef.apiGroup ||= rbac.RBAC_GROUP;
  for (const s of b.subjects ?? []) defaultSubject(s);
}
