/**
 * The kinds of object that feed the node graph (kube's graph_populator). Each is fed by an
 * informer over its key root where the server serves it; a kind that is not served adds nothing.
 */
import type { GraphEdge, GraphSource, Vertex } from './graph.js';
import { isMirrorPod, podNodeName, podReferences, type PodLike } from './pod-references.js';

type Json = Record<string, unknown>;

interface Named {
  readonly metadata: { readonly name?: string; readonly namespace?: string };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function sub(v: unknown, key: string): Json | undefined {
  const o = typeof v === 'object' && v !== null ? (v as Json)[key] : undefined;
  return typeof o === 'object' && o !== null && !Array.isArray(o) ? (o as Json) : undefined;
}

/**
 * A pod bound to a node reaches it, and so does each object it names. Mirror pods add only
 * their own edge: a node makes those itself, and must not gain access to anything through them.
 */
export const podGraphSource: GraphSource<PodLike> = {
  name: 'pods',
  keyRoot: '/pods',
  vertexOf: (pod) => ({
    type: 'pod',
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name ?? '',
  }),
  edgesOf(pod) {
    const node = podNodeName(pod);
    if (node === '') return [];
    const ns = pod.metadata.namespace ?? '';
    const self = podGraphSource.vertexOf(pod);
    if (isMirrorPod(pod)) return [{ from: self, node }];
    const refs = podReferences(pod);
    const named = (type: Vertex['type'], names: readonly string[]): GraphEdge[] =>
      names.map((name) => ({ from: { type, namespace: ns, name }, node }));
    return [
      { from: self, node },
      ...named('serviceAccount', refs.serviceAccount === '' ? [] : [refs.serviceAccount]),
      ...named('secret', refs.secrets),
      ...named('configmap', refs.configMaps),
      ...named('pvc', refs.persistentVolumeClaims),
    ];
  },
};

/** The secrets a PV names that the node agent uses (kube's VisitPVSecretNames, kubelet-visible ones). */
function persistentVolumeSecrets(spec: Json | undefined, claimNamespace: string): Vertex[] {
  const out: Vertex[] = [];
  const add = (ref: Json | undefined, nameKey = 'name') => {
    const name = str(ref?.[nameKey]);
    if (name !== '') out.push({ type: 'secret', namespace: str(ref?.['namespace']) || claimNamespace, name });
  };
  const azureFile = sub(spec, 'azureFile');
  if (azureFile) {
    const name = str(azureFile['secretName']);
    if (name !== '') {
      out.push({ type: 'secret', namespace: str(azureFile['secretNamespace']) || claimNamespace, name });
    }
  }
  for (const kind of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos']) {
    add(sub(sub(spec, kind), 'secretRef'));
  }
  const csi = sub(spec, 'csi');
  for (const key of ['nodePublishSecretRef', 'nodeStageSecretRef', 'nodeExpandSecretRef']) add(sub(csi, key));
  return out;
}

/** A bound persistent volume reaches what its claim reaches, and its secrets reach the volume. */
export const persistentVolumeGraphSource: GraphSource<Named & { readonly spec?: object }> = {
  name: 'persistentvolumes',
  keyRoot: '/persistentvolumes',
  vertexOf: (pv) => ({ type: 'pv', namespace: '', name: pv.metadata.name ?? '' }),
  edgesOf(pv) {
    const claimRef = sub(sub(pv, 'spec'), 'claimRef');
    if (!claimRef) return [];
    const self = persistentVolumeGraphSource.vertexOf(pv);
    const claimNamespace = str(claimRef['namespace']);
    const claim: Vertex = { type: 'pvc', namespace: claimNamespace, name: str(claimRef['name']) };
    return [
      { from: self, to: claim },
      ...persistentVolumeSecrets(sub(pv, 'spec'), claimNamespace).map((secret) => ({
        from: secret,
        to: self,
      })),
    ];
  },
};

/** A volume attachment reaches the node it attaches to. */
export const volumeAttachmentGraphSource: GraphSource<Named & { readonly spec?: object }> = {
  name: 'volumeattachments',
  keyRoot: '/volumeattachments',
  vertexOf: (va) => ({ type: 'volumeattachment', namespace: '', name: va.metadata.name ?? '' }),
  edgesOf(va) {
    const node = str(sub(va, 'spec')?.['nodeName']);
    return node === '' ? [] : [{ from: volumeAttachmentGraphSource.vertexOf(va), node }];
  },
};
