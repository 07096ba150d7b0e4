/**
 * The API group of every resource Keel keeps in its store, keyed by the store key's first segment
 * (`/secrets/...` → secrets). --encryption-provider-config names resources as `resource.group`, and
 * the store is opened before the resources are installed, so the mapping is fixed here;
 * test/encryption.test.ts checks it against what discovery serves. events.k8s.io Events share
 * the core Events' keys, as upstream's do, so they are encrypted as `events`.
 */
export const STORED_RESOURCE_GROUPS: Readonly<Record<string, string>> = {
  configmaps: '',
  endpoints: '',
  events: '',
  limitranges: '',
  namespaces: '',
  nodes: '',
  persistentvolumeclaims: '',
  persistentvolumes: '',
  pods: '',
  replicationcontrollers: '',
  resourcequotas: '',
  secrets: '',
  serviceaccounts: '',
  services: '',
  leases: 'coordination.k8s.io',
  replicasets: 'apps',
  statefulsets: 'apps',
  storageclasses: 'storage.k8s.io',
  csidrivers: 'storage.k8s.io',
  csinodes: 'storage.k8s.io',
  csistoragecapacities: 'storage.k8s.io',
  poddisruptionbudgets: 'policy',
  roles: 'rbac.authorization.k8s.io',
  rolebindings: 'rbac.authorization.k8s.io',
  clusterroles: 'rbac.authorization.k8s.io',
  clusterrolebindings: 'rbac.authorization.k8s.io',
  mutatingwebhookconfigurations: 'admissionregistration.k8s.io',
  validatingwebhookconfigurations: 'admissionregistration.k8s.io',
  priorityclasses: 'scheduling.k8s.io',
  flowschemas: 'flowcontrol.apiserver.k8s.io',
  prioritylevelconfigurations: 'flowcontrol.apiserver.k8s.io',
};

/**
 * The stored resource `group`/`resource` names (its key root without the slash), or undefined
 * when Keel does not store it; events.k8s.io Events are the core group's `events`.
 */
export function storedResource(group: string, resource: string): string | undefined {
  if (resource === 'events' && group === 'events.k8s.io') return 'events';
  return Object.hasOwn(STORED_RESOURCE_GROUPS, resource) && STORED_RESOURCE_GROUPS[resource] === group
    ? resource
    : undefined;
}
