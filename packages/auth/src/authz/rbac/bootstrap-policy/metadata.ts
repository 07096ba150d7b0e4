/**
 * The metadata every default RBAC object carries, and the few builders the data files share (the
 * reference builds its defaults the same way: a rule builder and one pass adding labels and the
 * autoupdate annotation).
 */
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../types.js';
import { RBAC_GROUP } from '../types.js';

export const RBAC_V1 = `${RBAC_GROUP}/v1`;

/** The annotation reconciliation reads: "false" leaves the object exactly as its owner made it. */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
export const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';

const DEFAULT_LABELS = { [BOOTSTRAPPING_LABEL]: 'rbac-defaults' } as const;
const DEFAULT_ANNOTATIONS = { [AUTOUPDATE_ANNOTATION]: 'true' } as const;

/**
 * The reference's system namespaces under Keel's names: objects it creates in `kube-system` live in
 * `platform-system`, those in `kube-public` in `platform-public`; service-account subjects of
 * `kube-system` become service accounts of `platform-system`.
 */
export const SYSTEM_NAMESPACE = 'platform-system';
export const PUBLIC_NAMESPACE = 'platform-public';
/**
 * The reference's own name for the system namespace, also created at start-up: unmodified
 * reference components (kube-scheduler) read extension-apiserver-authentication and keep their
 * leader-election Lease there.
 */
export const REFERENCE_SYSTEM_NAMESPACE = 'kube-system';

export const READ = ['get', 'list', 'watch'];
/** The reference's Write verbs, sorted as its golden files print them. */
export const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
export const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** A resource rule; fields in the order the reference serializes them. */
export function rule(
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  resourceNames?: string[],
): PolicyRule {
  return { verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) };
}

export function urlRule(verbs: string[], nonResourceURLs: string[]): PolicyRule {
  return { verbs, nonResourceURLs };
}

/** Most controllers record events through both event APIs. */
export const EVENTS_RULE = rule(['create', 'patch', 'update'], ['', 'events.k8s.io'], ['events']);

export function clusterRole(
  name: string,
  rules: PolicyRule[] | undefined,
  extra: { labels?: Record<string, string>; aggregateFrom?: string } = {},
): ClusterRole {
  return {
    apiVersion: RBAC_V1,
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: { ...DEFAULT_LABELS, ...extra.labels },
      annotations: { ...DEFAULT_ANNOTATIONS },
    },
    ...(extra.aggregateFrom
      ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [extra.aggregateFrom]: 'true' } }] } }
      : {}),
    // Aggregated roles start without rules (null in the reference's golden file).
    ...(rules ? { rules } : {}),
  };
}

export function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return {
    apiVersion: RBAC_V1,
    kind: 'Role',
    metadata: { name, namespace, labels: { ...DEFAULT_LABELS }, annotations: { ...DEFAULT_ANNOTATIONS } },
    rules,
  };
}

export function user(name: string): Subject {
  return { kind: 'User', apiGroup: RBAC_GROUP, name };
}

export function group(name: string): Subject {
  return { kind: 'Group', apiGroup: RBAC_GROUP, name };
}

export function serviceAccount(name: string, namespace = SYSTEM_NAMESPACE): Subject {
  return { kind: 'ServiceAccount', name, namespace };
}

export function clusterRoleBinding(name: string, subjects: Subject[], roleName = name): ClusterRoleBinding {
  return {
    apiVersion: RBAC_V1,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: { ...DEFAULT_LABELS }, annotations: { ...DEFAULT_ANNOTATIONS } },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
    // The reference leaves system:node's binding without subjects (the Node authorizer took over).
    ...(subjects.length > 0 ? { subjects } : {}),
  };
}

export function roleBinding(
  namespace: string,
  name: string,
  subjects: Subject[],
  roleRef: { kind: 'Role' | 'ClusterRole'; name: string },
): RoleBinding {
  return {
    apiVersion: RBAC_V1,
    kind: 'RoleBinding',
    metadata: { name, namespace, labels: { ...DEFAULT_LABELS }, annotations: { ...DEFAULT_ANNOTATIONS } },
    roleRef: { apiGroup: RBAC_GROUP, ...roleRef },
    subjects,
  };
}
