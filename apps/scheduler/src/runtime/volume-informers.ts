/**
 * The storage informers volume scheduling needs (kube-scheduler's PV, PVC, StorageClass, CSINode,
 * CSIDriver and CSIStorageCapacity informers), their listers for the plugins, and the API writes volume binding makes.
 */
import { createInformer, type Informer, type KubeObject, type RestClient } from '@keel/client';
import type {
  CSIDriver,
  CSINode,
  CSIStorageCapacity,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumeListers,
  VolumeWriter,
} from '../framework/volume-objects.js';
import type { ClusterEvent } from '../queue/scheduling-queue.js';

type Kind =
  | 'PersistentVolume'
  | 'PersistentVolumeClaim'
  | 'StorageClass'
  | 'CSINode'
  | 'CSIDriver'
  | 'CSIStorageCapacity';

/**
 * The storage collections, in the order kube-scheduler's informers start. CSIStorageCapacity
 * became v1 in 1.24 (v1beta1 from 1.21): on an older API server the capacity check has nothing to
 * read and goes on without it, as it does for drivers that publish no capacity.
 */
const COLLECTIONS: readonly {
  kind: Kind;
  path: string;
  fallbacks?: readonly string[];
  optional?: boolean;
}[] = [
  { kind: 'PersistentVolume', path: '/api/v1/persistentvolumes' },
  { kind: 'PersistentVolumeClaim', path: '/api/v1/persistentvolumeclaims' },
  { kind: 'StorageClass', path: '/apis/storage.k8s.io/v1/storageclasses' },
  { kind: 'CSINode', path: '/apis/storage.k8s.io/v1/csinodes' },
  { kind: 'CSIDriver', path: '/apis/storage.k8s.io/v1/csidrivers' },
  {
    kind: 'CSIStorageCapacity',
    path: '/apis/storage.k8s.io/v1/csistoragecapacities',
    fallbacks: ['/apis/storage.k8s.io/v1beta1/csistoragecapacities'],
    optional: true,
  },
];

export function storageEvent(kind: Kind, action: 'Add' | 'Update'): ClusterEvent {
  return { resource: kind, action, label: `${kind}${action}` };
}

export interface VolumeInformers {
  readonly informers: readonly Informer<KubeObject>[];
  readonly listers: VolumeListers;
}

export interface VolumeInformerDeps {
  readonly client: Pick<RestClient, 'list' | 'watch'>;
  readonly transform: (obj: KubeObject) => KubeObject;
  readonly onError: (resource: string) => (err: unknown) => void;
  /** Adds and updates may let pods waiting for volumes fit (deletes never do). */
  readonly onChange: (event: ClusterEvent) => void;
  readonly signal?: AbortSignal;
}

export function newVolumeInformers(deps: VolumeInformerDeps): VolumeInformers {
  const byKind = new Map<Kind, Informer<KubeObject>>();
  for (const { kind, path, fallbacks, optional } of COLLECTIONS) {
    byKind.set(
      kind,
      createInformer<KubeObject>({
        client: deps.client,
        listPath: path,
        ...(fallbacks ? { fallbackListPaths: fallbacks } : {}),
        ...(optional ? { optional } : {}),
        transform: deps.transform,
        onError: deps.onError(path.slice(path.lastIndexOf('/') + 1)),
        ...(deps.signal ? { signal: deps.signal } : {}),
        onAdd: () => deps.onChange(storageEvent(kind, 'Add')),
        onUpdate: () => deps.onChange(storageEvent(kind, 'Update')),
      }),
    );
  }
  const inf = (kind: Kind) => byKind.get(kind) as Informer<KubeObject>;
  // The informers hold the wire objects; the plugins read the fields they type defensively.
  const listers: VolumeListers = {
    persistentVolume: (name) => inf('PersistentVolume').get(name) as unknown as PersistentVolume | undefined,
    persistentVolumes: () => inf('PersistentVolume').list() as unknown as PersistentVolume[],
    persistentVolumeClaim: (ns, name) =>
      inf('PersistentVolumeClaim').get(`${ns}/${name}`) as unknown as PersistentVolumeClaim | undefined,
    storageClass: (name) => inf('StorageClass').get(name) as unknown as StorageClass | undefined,
    csiNode: (name) => inf('CSINode').get(name) as unknown as CSINode | undefined,
    csiDriver: (name) => inf('CSIDriver').get(name) as unknown as CSIDriver | undefined,
    csiStorageCapacities: () => inf('CSIStorageCapacity').list() as unknown as CSIStorageCapacity[],
  };
  return { informers: [...byKind.values()], listers };
}

/** Merge patches through the scheduler's client. */
export function volumeWriter(client: Pick<RestClient, 'patch'>): VolumeWriter {
  const sub = (s: 'status' | undefined) => (s ? `/${s}` : '');
  const opts = (signal: AbortSignal | undefined) => (signal ? { signal } : {});
  return {
    async patchPersistentVolume(name, patch, subresource, signal) {
      const path = `/api/v1/persistentvolumes/${encodeURIComponent(name)}${sub(subresource)}`;
      await client.patch(path, 'merge', patch, opts(signal));
    },
    async patchPersistentVolumeClaim(namespace, name, patch, subresource, signal) {
      const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/persistentvolumeclaims/${encodeURIComponent(name)}${sub(subresource)}`;
      await client.patch(path, 'merge', patch, opts(signal));
    },
  };
}
