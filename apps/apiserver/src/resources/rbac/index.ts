import { AdmissionChain, type Admission, type AdmissionPlugin } from '@keel/admission';
import {
  rbacClusterRoleBindingView,
  rbacClusterRoleView,
  rbacRoleBindingView,
  rbacRoleView,
} from '@keel/coreapi';
import { rbac } from '@keel/auth';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../../endpoints/dispatch.js';
import type { ScopeDefaults } from '../../server/server.js';
import { installStored, type ServedView } from '../stored.js';
import { rbacEscalationPlugin, type EscalationDeps } from './escalation.js';

export { rbacEscalationPlugin, type EscalationDeps } from './escalation.js';

/** The configured chain, then the resource's own plugins. */
function withPlugins(configured: Admission, plugins: readonly AdmissionPlugin[]): Admission {
  if (configured instanceof AdmissionChain) return configured.with(plugins);
  const asPlugin: AdmissionPlugin = {
    name: 'configured',
    handles: (op) => configured.handles(op),
    admit: (attrs) => configured.admit(attrs),
    validate: (attrs) => configured.validate(attrs),
  };
  return new AdmissionChain([asPlugin, ...plugins]);
}

/**
 * rbac.authorization.k8s.io/v1: Roles, ClusterRoles and their bindings under the key roots the
 * RBAC informers watch, every write through the escalation check.
 */
export function installRbacResources(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
  deps: EscalationDeps,
): ServedView[] {
  const admission = withPlugins(defaults.admission, [rbacEscalationPlugin(deps)]);
  const roots = rbac.RBAC_KEY_ROOTS;
  const install = (view: ServedView, keyRoot: string) =>
    installStored(dispatcher, storage, defaults, { view, keyRoot, admission }).served;
  return [
    install(rbacClusterRoleBindingView, roots.clusterrolebindings),
    install(rbacClusterRoleView, roots.clusterroles),
    install(rbacRoleBindingView, roots.rolebindings),
    install(rbacRoleView, roots.roles),
  ];
}
