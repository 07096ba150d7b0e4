/**
 * rbac.authorization.k8s.io/v1 objects as stored and served (the wire form is the stored form).
 * The authorizer's rule index, the bootstrap policy and the served resources all use these.
 */
import type { ObjectMetaLike } from './meta.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface LabelSelectorLike {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelectorLike[];
}

export interface Role {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMetaLike;
  rules?: PolicyRule[];
}

export interface ClusterRole extends Role {
  aggregationRule?: AggregationRule;
}

/** kind is User, Group or ServiceAccount; apiGroup is rbac.authorization.k8s.io for the first two. */
export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface RoleBinding {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMetaLike;
  subjects?: Subject[];
  roleRef: RoleRef;
}

export type ClusterRoleBinding = RoleBinding;

/** Where each kind lives under the store prefix (one key root per resource, like every other). */
export const RBAC_KEY_ROOTS = {
  roles: '/roles',
  rolebindings: '/rolebindings',
  clusterroles: '/clusterroles',
  clusterrolebindings: '/clusterrolebindings',
} as const;
