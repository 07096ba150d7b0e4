/**
 * The default RBAC policy the API server creates and reconciles at start-up, and the pure
 * reconciliation that never undoes what a user changed.
 */
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../types.js';
import { CLUSTER_ROLE_BINDINGS } from './cluster-role-bindings.js';
import { CLUSTER_ROLES } from './cluster-roles.js';
import { CONTROLLER_ROLE_BINDINGS, CONTROLLER_ROLES } from './controller-roles.js';
import { NAMESPACE_ROLE_BINDINGS, NAMESPACE_ROLES } from './namespace-roles.js';

export {
  AUTOUPDATE_ANNOTATION,
  BOOTSTRAPPING_LABEL,
  PUBLIC_NAMESPACE,
  SYSTEM_NAMESPACE,
} from './metadata.js';
export { reconcileBinding, reconcileRole, type Reconciled } from './reconcile.js';

export interface BootstrapPolicy {
  readonly clusterRoles: readonly ClusterRole[];
  readonly clusterRoleBindings: readonly ClusterRoleBinding[];
  readonly roles: readonly Role[];
  readonly roleBindings: readonly RoleBinding[];
}

/** Every default object; a fresh copy each call, so callers may change what they get. */
export function bootstrapPolicy(): BootstrapPolicy {
  return structuredClone({
    clusterRoles: [...CLUSTER_ROLES, ...CONTROLLER_ROLES],
    clusterRoleBindings: [...CLUSTER_ROLE_BINDINGS, ...CONTROLLER_ROLE_BINDINGS],
    roles: [...NAMESPACE_ROLES],
    roleBindings: [...NAMESPACE_ROLE_BINDINGS],
  });
}
