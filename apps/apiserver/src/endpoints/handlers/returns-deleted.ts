/**
 * The resources whose registry answers a finished DELETE with the deleted object itself rather
 * than a Success Status: kube-apiserver 1.20's stores with `ReturnDeletedObject: true`
 * (pkg/registry/.../storage/storage.go). Keyed `resource.group` ('' for core). Kept as a table
 * because the choice is the reference's, per resource, and has no rule to derive it from.
 */
const RETURNS_DELETED_OBJECT: ReadonlySet<string> = new Set([
  'pods.',
  'services.',
  'namespaces.',
  'persistentvolumes.',
  'persistentvolumeclaims.',
  'serviceaccounts.',
  'resourcequotas.',
  'podtemplates.',
  'storageclasses.storage.k8s.io',
  'volumeattachments.storage.k8s.io',
  'csinodes.storage.k8s.io',
  'csidrivers.storage.k8s.io',
  'podsecuritypolicies.policy',
]);

/** Whether a DELETE that removed an object of this resource answers with the object. */
export function returnsDeletedObject(group: string, resource: string): boolean {
  return RETURNS_DELETED_OBJECT.has(`${resource}.${group}`);
}
