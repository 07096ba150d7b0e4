/**
 * The projected volume the ServiceAccount plugin gives a pod (kube's TokenVolumeSource): a bound
 * token, the cluster CA from the `kube-root-ca.crt` ConfigMap and the pod's namespace, mounted
 * read-only at the path client libraries read in-cluster configuration from.
 */
import { generateName } from '@keel/apimachinery';
import { arr, obj, str, type Json } from './json.js';

export const TOKEN_VOLUME_PREFIX = 'kube-api-access-';
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: an hour and seven seconds. */
export const TOKEN_EXPIRATION_SECONDS = 3607;
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';

/** The volume, in Go's field order; defaultMode is set explicitly, as upstream does. */
export function tokenVolume(name: string): Json {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
        { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
      defaultMode: 0o644,
    },
  };
}

/**
 * Mounts the token volume into every init container and container that has nothing mounted at
 * the token path yet, adding the volume (a fresh `kube-api-access-xxxxx`, unless the pod already
 * has one) only when some container took the mount.
 */
export function mountTokenVolume(spec: Json, random?: (length: number) => string): void {
  const volumes = arr(spec['volumes']);
  const existing = volumes.find((v) => str(v['name']).startsWith(TOKEN_VOLUME_PREFIX));
  const name = existing ? str(existing['name']) : generateName(TOKEN_VOLUME_PREFIX, random);
  let mounted = false;
  for (const key of ['initContainers', 'containers']) {
    for (const c of arr(spec[key])) {
      const mounts = Array.isArray(c['volumeMounts']) ? (c['volumeMounts'] as unknown[]) : [];
      if (mounts.some((m) => str(obj(m)?.['mountPath']) === TOKEN_MOUNT_PATH)) continue;
      c['volumeMounts'] = [...mounts, { name, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      mounted = true;
    }
  }
  const current: unknown[] = Array.isArray(spec['volumes']) ? (spec['volumes'] as unknown[]) : [];
  if (!existing && mounted) spec['volumes'] = [...current, tokenVolume(name)];
}
