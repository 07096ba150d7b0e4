/**
 * The API objects a pod spec names (kube's podutil.VisitPodSecretNames / VisitPodConfigmapNames
 * and the node graph's PVC and service-account edges). Read from the stored v1 JSON, so the
 * authorizer needs no pod model of its own.
 */

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

function arr(v: unknown): Json[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((e): Json[] => {
    const o = obj(e);
    return o ? [o] : [];
  });
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The annotation that marks a pod a node agent made from a static manifest. */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** What the graph and NodeRestriction read of a pod: metadata and spec as stored. */
export interface PodLike {
  readonly metadata: {
    readonly name?: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly annotations?: Readonly<Record<string, string>>;
  };
  readonly spec?: object;
}

export interface PodReferences {
  readonly secrets: readonly string[];
  readonly configMaps: readonly string[];
  /** Claims the volumes name, ephemeral volumes' generated claims (`<pod>-<volume>`) included. */
  readonly persistentVolumeClaims: readonly string[];
  readonly serviceAccount: string;
  /** Whether a projected volume names a ClusterTrustBundle (NodeRestriction refuses those). */
  readonly clusterTrustBundles: boolean;
}

/** Init, regular and ephemeral containers: all three carry env and envFrom. */
function containers(spec: Json): Json[] {
  return [...arr(spec['initContainers']), ...arr(spec['containers']), ...arr(spec['ephemeralContainers'])];
}

/** The names in the order kube visits them, empty names skipped, each once. */
export function podReferences(pod: PodLike): PodReferences {
  const spec = obj(pod.spec) ?? {};
  const secrets = new Set<string>();
  const configMaps = new Set<string>();
  const claims = new Set<string>();
  const add = (set: Set<string>, name: unknown) => {
    const n = str(name);
    if (n !== '') set.add(n);
  };
  let clusterTrustBundles = false;

  for (const ref of arr(spec['imagePullSecrets'])) add(secrets, ref['name']);
  for (const c of containers(spec)) {
    for (const from of arr(c['envFrom'])) {
      add(secrets, obj(from['secretRef'])?.['name']);
      add(configMaps, obj(from['configMapRef'])?.['name']);
    }
    for (const env of arr(c['env'])) {
      const valueFrom = obj(env['valueFrom']);
      add(secrets, obj(valueFrom?.['secretKeyRef'])?.['name']);
      add(configMaps, obj(valueFrom?.['configMapKeyRef'])?.['name']);
    }
  }
  for (const volume of arr(spec['volumes'])) {
    add(secrets, obj(volume['secret'])?.['secretName']);
    add(secrets, obj(volume['azureFile'])?.['secretName']);
    for (const kind of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos']) {
      add(secrets, obj(obj(volume[kind])?.['secretRef'])?.['name']);
    }
    add(secrets, obj(obj(volume['csi'])?.['nodePublishSecretRef'])?.['name']);
    add(configMaps, obj(volume['configMap'])?.['name']);
    for (const source of arr(obj(volume['projected'])?.['sources'])) {
      add(secrets, obj(source['secret'])?.['name']);
      add(configMaps, obj(source['configMap'])?.['name']);
      if (obj(source['clusterTrustBundle'])) clusterTrustBundles = true;
    }
    add(claims, obj(volume['persistentVolumeClaim'])?.['claimName']);
    if (obj(volume['ephemeral'])) add(claims, `${pod.metadata.name ?? ''}-${str(volume['name'])}`);
  }
  return {
    secrets: [...secrets],
    configMaps: [...configMaps],
    persistentVolumeClaims: [...claims],
    serviceAccount: str(spec['serviceAccountName']),
    clusterTrustBundles,
  };
}

/** The node a pod is bound to ('' while unscheduled). */
export function podNodeName(pod: PodLike): string {
  return str(obj(pod.spec)?.['nodeName']);
}

export function isMirrorPod(pod: PodLike): boolean {
  return pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;
}
