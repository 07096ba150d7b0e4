/**
 * The secrets a pod spec names (kube's podutil.VisitPodSecretNames over all containers) and the
 * ServiceAccount plugin's `kubernetes.io/enforce-mountable-secrets` check of them.
 */
import { arr, obj, str, type Json } from './json.js';

/** Every secret a pod references: pull secrets, env and envFrom of every container, and volumes. */
export function podSecretNames(spec: Json): string[] {
  const names: string[] = [];
  const add = (v: unknown) => {
    const name = str(v);
    if (name !== '') names.push(name);
  };
  for (const s of arr(spec['imagePullSecrets'])) add(s['name']);
  const containers = [
    ...arr(spec['initContainers']),
    ...arr(spec['containers']),
    ...arr(spec['ephemeralContainers']),
  ];
  for (const c of containers) {
    for (const from of arr(c['envFrom'])) add(obj(from['secretRef'])?.['name']);
    for (const env of arr(c['env'])) add(obj(obj(env['valueFrom'])?.['secretKeyRef'])?.['name']);
  }
  const ref = (source: unknown, field: string) => add(obj(obj(source)?.[field])?.['name']);
  for (const v of arr(spec['volumes'])) {
    add(obj(v['secret'])?.['secretName']);
    add(obj(v['azureFile'])?.['secretName']);
    for (const source of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'])
      ref(v[source], 'secretRef');
    ref(v['csi'], 'nodePublishSecretRef');
    for (const p of arr(obj(v['projected'])?.['sources'])) add(obj(p['secret'])?.['name']);
  }
  return names;
}

/**
 * Why a pod of a service account that enforces mountable secrets may not be created: a secret
 * volume, a secretKeyRef (init containers first) or a pull secret the account does not list.
 */
export function unmountableSecret(sa: Json, spec: Json): string | undefined {
  const saName = str(obj(sa['metadata'])?.['name']);
  const mountable = new Set(arr(sa['secrets']).map((s) => str(s['name'])));
  for (const v of arr(spec['volumes'])) {
    const secret = obj(v['secret']);
    if (!secret) continue;
    const name = str(secret['secretName']);
    if (!mountable.has(name))
      return `volume with secret.secretName="${name}" is not allowed because service account ${saName} does not reference that secret`;
  }
  const envRefs = (containers: Json[], what: string) => {
    for (const c of containers) {
      for (const env of arr(c['env'])) {
        const ref = obj(obj(env['valueFrom'])?.['secretKeyRef']);
        if (ref && !mountable.has(str(ref['name'])))
          return `${what} ${str(c['name'])} with envVar ${str(env['name'])} referencing secret.secretName="${str(ref['name'])}" is not allowed because service account ${saName} does not reference that secret`;
      }
    }
    return undefined;
  };
  const env =
    envRefs(arr(spec['initContainers']), 'init container') ?? envRefs(arr(spec['containers']), 'container');
  if (env !== undefined) return env;
  const pullable = new Set(arr(sa['imagePullSecrets']).map((s) => str(s['name'])));
  const pulls = arr(spec['imagePullSecrets']);
  for (const [i, ref] of pulls.entries()) {
    const name = str(ref['name']);
    if (!pullable.has(name))
      return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
  }
  return undefined;
}
