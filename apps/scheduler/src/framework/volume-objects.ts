/**
 * The storage objects the volume plugins read (PersistentVolumes, PersistentVolumeClaims,
 * StorageClasses, CSINodes), as plain JSON shapes typed only as far as the plugins read them, and
 * the listers and writer the scheduler hands the plugins (kube's informer listers and clientset).
 */
import type { LabelSelectorSpec, NodeSelector, ObjectMeta, QuantityValue } from './types.js';

export interface ObjectReference {
  readonly kind?: string;
  readonly apiVersion?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export interface PersistentVolumeSpec {
  readonly capacity?: Readonly<Record<string, QuantityValue>>;
  readonly accessModes?: readonly string[] | null;
  readonly claimRef?: ObjectReference | null;
  readonly storageClassName?: string;
  /** `Filesystem` (the default) or `Block`. */
  readonly volumeMode?: string;
  readonly nodeAffinity?: { readonly required?: NodeSelector | null } | null;
  readonly csi?: { readonly driver: string; readonly volumeHandle: string } | null;
  readonly [key: string]: unknown;
}

export interface PersistentVolume {
  readonly metadata: ObjectMeta & { readonly name: string };
  readonly spec?: PersistentVolumeSpec;
  readonly status?: { readonly phase?: string; readonly [key: string]: unknown };
}

export interface PersistentVolumeClaimSpec {
  readonly accessModes?: readonly string[] | null;
  readonly selector?: LabelSelectorSpec | null;
  readonly resources?: { readonly requests?: Readonly<Record<string, QuantityValue>> };
  readonly volumeName?: string;
  readonly storageClassName?: string | null;
  readonly volumeMode?: string;
  readonly [key: string]: unknown;
}

export interface PersistentVolumeClaim {
  readonly metadata: ObjectMeta & {
    readonly name: string;
    readonly ownerReferences?: readonly { readonly uid?: string; readonly controller?: boolean }[];
  };
  readonly spec?: PersistentVolumeClaimSpec;
  readonly status?: { readonly phase?: string; readonly [key: string]: unknown };
}

export interface TopologySelectorTerm {
  readonly matchLabelExpressions?: readonly { readonly key: string; readonly values: readonly string[] }[];
}

export interface StorageClass {
  readonly metadata: ObjectMeta & { readonly name: string };
  readonly provisioner?: string;
  /** `Immediate` (the API server's default) or `WaitForFirstConsumer`. */
  readonly volumeBindingMode?: string;
  readonly allowedTopologies?: readonly TopologySelectorTerm[] | null;
}

export interface CSINode {
  readonly metadata: ObjectMeta & { readonly name: string };
  readonly spec?: {
    readonly drivers?:
      | readonly { readonly name: string; readonly allocatable?: { readonly count?: number | null } | null }[]
      | null;
  };
}

export interface CSIDriver {
  readonly metadata: ObjectMeta & { readonly name: string };
  /** `storageCapacity: true` opts the driver into capacity-aware scheduling. */
  readonly spec?: { readonly storageCapacity?: boolean | null };
}

export interface CSIStorageCapacity {
  readonly metadata: ObjectMeta & { readonly name: string };
  readonly storageClassName: string;
  readonly nodeTopology?: LabelSelectorSpec | null;
  readonly capacity?: QuantityValue;
  readonly maximumVolumeSize?: QuantityValue;
}

/** Reads from the scheduler's informer caches (never from the API server). */
export interface VolumeListers {
  persistentVolume(name: string): PersistentVolume | undefined;
  persistentVolumes(): readonly PersistentVolume[];
  persistentVolumeClaim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  storageClass(name: string): StorageClass | undefined;
  csiNode(nodeName: string): CSINode | undefined;
  csiDriver(name: string): CSIDriver | undefined;
  csiStorageCapacities(): readonly CSIStorageCapacity[];
}

/** The API writes volume binding makes: merge patches of a PV or a PVC and of their status. */
export interface VolumeWriter {
  patchPersistentVolume(
    name: string,
    patch: object,
    subresource?: 'status',
    signal?: AbortSignal,
  ): Promise<void>;
  patchPersistentVolumeClaim(
    namespace: string,
    name: string,
    patch: object,
    subresource?: 'status',
    signal?: AbortSignal,
  ): Promise<void>;
}

/** No storage objects at all: for frameworks built without informers. */
export const NO_VOLUME_LISTERS: VolumeListers = {
  persistentVolume: () => undefined,
  persistentVolumes: () => [],
  persistentVolumeClaim: () => undefined,
  storageClass: () => undefined,
  csiNode: () => undefined,
  csiDriver: () => undefined,
  csiStorageCapacities: () => [],
};

const refuse = () => Promise.reject(new Error('this scheduler has no API client for volume binding'));

export const NO_VOLUME_WRITER: VolumeWriter = {
  patchPersistentVolume: refuse,
  patchPersistentVolumeClaim: refuse,
};
