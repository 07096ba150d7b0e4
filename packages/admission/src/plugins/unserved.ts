/**
 * Plugins whose every object is of a kind Keel does not serve: they are accepted by name (a
 * kube-apiserver command line keeps working) and documented as having nothing to act on, since
 * no write they would look at can reach the chain.
 */
export const UNSERVED_PLUGINS: ReadonlyMap<string, string> = new Map([
  ['DefaultStorageClass', 'persistentvolumeclaims and storageclasses'],
  ['StorageObjectInUseProtection', 'persistentvolumes and persistentvolumeclaims'],
  ['PersistentVolumeClaimResize', 'persistentvolumeclaims and storageclasses'],
  ['PersistentVolumeLabel', 'persistentvolumes'],
  ['CertificateApproval', 'certificatesigningrequests'],
  ['CertificateSigning', 'certificatesigningrequests'],
  ['CertificateSubjectRestriction', 'certificatesigningrequests'],
  ['DefaultIngressClass', 'ingresses and ingressclasses'],
]);
