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
  pods: '',
  resourcequotas: '',
  secrets: '',
  serviceaccounts: '',
  leases: 'coordination.k8s.io',
  roles: 'rbac.authorization.k8s.io',
  rolebindings: 'rbac.authorization.k8s.io',
  clusterroles: 'rbac.authorization.k8s.io',
  clusterrolebindings: 'rbac.authorization.k8s.io',
  mutatingwebhookconfigurations: 'admissionregistration.k8s.io',
  validatingwebhookconfigurations: 'admissionregistration.k8s.io',
  priorityclasses: 'scheduling.k8s.io',
};
