/**
 * The server's watched copies of the four RBAC kinds, from its shared informers: what the RBAC
 * authorizer's index and the escalation checks read instead of the store. The start-informers
 * hook waits for them with the others, so /readyz stays red until RBAC can decide.
 */
import { rbac } from '@keel/auth';
import type { ServerInformers } from './informers.js';

export function rbacSources(informers: ServerInformers): rbac.RbacSources {
  // Everything under these key roots was written through the RBAC stores as these kinds.
  const source = <T>(root: string) => informers.informer(root) as unknown as rbac.RbacSource<T>;
  return {
    roles: source<rbac.Role>(rbac.RBAC_KEY_ROOTS.roles),
    roleBindings: source<rbac.RoleBinding>(rbac.RBAC_KEY_ROOTS.rolebindings),
    clusterRoles: source<rbac.ClusterRole>(rbac.RBAC_KEY_ROOTS.clusterroles),
    clusterRoleBindings: source<rbac.RoleBinding>(rbac.RBAC_KEY_ROOTS.clusterrolebindings),
  };
}
