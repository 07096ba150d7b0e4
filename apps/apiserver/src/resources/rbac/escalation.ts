/**
 * Escalation prevention (kube's pkg/registry/rbac policy-based storage) as a validating
 * admission plugin on the four RBAC resources. A role may be written by a member of
 * system:masters, by a user the server's authorizer allows to `escalate` it, or by a user who
 * already holds every rule it grants; a binding by a user allowed to `bind` the role it names,
 * or who holds every rule of that role. Writes that touch only what garbage collection changes
 * pass, as upstream.
 */
import type { AdmissionAttributes, AdmissionPlugin, AdmittedObject } from '@keel/admission';
import { forbidden, notFound } from '@keel/apimachinery';
import { rbac, SYSTEM_PRIVILEGED_GROUP, type Authorizer, type UserInfo } from '@keel/auth';
import { sameJson } from '@keel/resource';

const ROLE_RESOURCES = new Set(['roles', 'clusterroles']);
const BINDING_RESOURCES = new Set(['rolebindings', 'clusterrolebindings']);

/** rbacregistry.IsOnlyMutatingGCFields: the same object once owners, finalizers and managers are put back. */
function onlyGCFieldsChanged(obj: AdmittedObject, old: AdmittedObject): boolean {
  const keep = [
    'ownerReferences',
    'finalizers',
    'managedFields',
    'selfLink',
    'resourceVersion',
    'generation',
  ] as const;
  const meta: Record<string, unknown> = { ...obj.metadata };
  const oldMeta = old.metadata as Record<string, unknown>;
  for (const f of keep) {
    if (oldMeta[f] === undefined) delete meta[f];
    else meta[f] = oldMeta[f];
  }
  return sameJson({ ...obj, metadata: meta }, old);
}

async function allowedTo(
  authorizer: Authorizer,
  user: UserInfo,
  verb: string,
  resource: string,
  namespace: string,
  name: string,
): Promise<boolean> {
  const d = await authorizer.authorize({
    user,
    verb,
    isResourceRequest: true,
    path: '',
    namespace,
    apiGroup: rbac.RBAC_GROUP,
    apiVersion: '*',
    resource,
    subresource: '',
    name,
  });
  return d.decision === 'allow';
}

export interface EscalationDeps {
  /** The server's whole authorizer chain, the one the request filter asks. */
  readonly authorizer: Authorizer;
  /** Reads the rules a user holds from the RBAC index (whatever the authorization mode). */
  readonly resolver: rbac.RBACAuthorizer;
}

export function rbacEscalationPlugin(deps: EscalationDeps): AdmissionPlugin {
  const { authorizer, resolver } = deps;
  const refuse = (attrs: AdmissionAttributes, why: string) =>
    forbidden({ group: rbac.RBAC_GROUP, resource: attrs.resource.resource }, attrs.name, why);

  async function checkRole(attrs: AdmissionAttributes): Promise<void> {
    // Upstream asks with the request's name, which a POST does not have.
    const name = attrs.operation === 'CREATE' ? '' : attrs.name;
    if (await allowedTo(authorizer, attrs.user, 'escalate', attrs.resource.resource, attrs.namespace, name))
      return;
    const role = attrs.object as unknown as rbac.ClusterRole;
    const why = rbac.confirmNoEscalation(resolver, attrs.user, attrs.namespace, role.rules ?? []);
    if (why !== undefined) throw refuse(attrs, why);
  }

  async function checkBinding(attrs: AdmissionAttributes): Promise<void> {
    const binding = attrs.object as unknown as rbac.RoleBinding;
    const ref = binding.roleRef;
    const roleResource = ref.kind === 'Role' ? 'roles' : ref.kind === 'ClusterRole' ? 'clusterroles' : '';
    if (roleResource === '') return; // validation refused it already
    if (await allowedTo(authorizer, attrs.user, 'bind', roleResource, attrs.namespace, ref.name)) return;
    const resolved = resolver.index.roleRules(ref, attrs.namespace);
    if ('error' in resolved) throw notFound({ group: rbac.RBAC_GROUP, resource: roleResource }, ref.name);
    const why = rbac.confirmNoEscalation(resolver, attrs.user, attrs.namespace, resolved.rules);
    if (why !== undefined) throw refuse(attrs, why);
  }

  return {
    name: 'RBACEscalation',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    async validate(attrs) {
      if (attrs.subresource !== '' || attrs.resource.group !== rbac.RBAC_GROUP || !attrs.object) return;
      if (attrs.user.groups.includes(SYSTEM_PRIVILEGED_GROUP)) return;
      if (attrs.oldObject && onlyGCFieldsChanged(attrs.object, attrs.oldObject)) return;
      // Before the copies are read, every user would seem to hold nothing (or a role to be missing).
      await resolver.index.waitForSync();
      if (ROLE_RESOURCES.has(attrs.resource.resource)) await checkRole(attrs);
      else if (BINDING_RESOURCES.has(attrs.resource.resource)) await checkBinding(attrs);
    },
  };
}
