/** Builders for the volume plugins' tests: claims, volumes, classes, and listers over arrays. */
import type { LabelSelectorSpec, Pod, Volume } from '../types.js';
import type {
  CSIDriver,
  CSINode,
  CSIStorageCapacity,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumeListers,
  VolumeWriter,
} from '../volume-objects.js';
import { makePod, type PodOptions } from './fixtures.js';

export interface ClaimOptions {
  readonly namespace?: string;
  readonly storageClassName?: string;
  readonly request?: string;
  readonly accessModes?: readonly string[];
  readonly volumeName?: string;
  /** Marks the claim as bound by the PV controller (with `volumeName`). */
  readonly bound?: boolean;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly selector?: LabelSelectorSpec;
}

export function makeClaim(name: string, o: ClaimOptions = {}): PersistentVolumeClaim {
  const annotations = { ...o.annotations, ...(o.bound ? { 'pv.kubernetes.io/bind-completed': 'yes' } : {}) };
  return {
    metadata: { name, namespace: o.namespace ?? 'default', uid: `uid-pvc-${name}`, annotations },
    spec: {
      accessModes: o.accessModes ?? ['ReadWriteOnce'],
      resources: { requests: { storage: o.request ?? '1Gi' } },
      ...(o.storageClassName !== undefined ? { storageClassName: o.storageClassName } : {}),
      ...(o.volumeName !== undefined ? { volumeName: o.volumeName } : {}),
      ...(o.selector ? { selector: o.selector } : {}),
    },
    status: { phase: o.bound ? 'Bound' : 'Pending' },
  };
}

export interface VolumeOptions {
  readonly storageClassName?: string;
  readonly capacity?: string;
  readonly accessModes?: readonly string[];
  /** Node names the volume is local to (required node affinity on the hostname label). */
  readonly nodes?: readonly string[];
  readonly labels?: Readonly<Record<string, string>>;
  readonly claim?: PersistentVolumeClaim;
  readonly phase?: string;
  readonly csi?: { driver: string; volumeHandle: string };
}

export function makeVolume(name: string, o: VolumeOptions = {}): PersistentVolume {
  return {
    metadata: { name, ...(o.labels ? { labels: o.labels } : {}) },
    spec: {
      capacity: { storage: o.capacity ?? '1Gi' },
      accessModes: o.accessModes ?? ['ReadWriteOnce'],
      ...(o.storageClassName !== undefined ? { storageClassName: o.storageClassName } : {}),
      ...(o.nodes
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  {
                    matchExpressions: [
                      { key: 'kubernetes.io/hostname', operator: 'In', values: [...o.nodes] },
                    ],
                  },
                ],
              },
            },
          }
        : {}),
      ...(o.claim
        ? {
            claimRef: {
              kind: 'PersistentVolumeClaim',
              namespace: o.claim.metadata.namespace ?? 'default',
              name: o.claim.metadata.name,
              uid: o.claim.metadata.uid ?? '',
            },
          }
        : {}),
      ...(o.csi ? { csi: o.csi } : {}),
      hostPath: { path: `/data/${name}` },
    },
    status: { phase: o.phase ?? (o.claim ? 'Bound' : 'Available') },
  };
}

export function makeClass(
  name: string,
  mode: 'Immediate' | 'WaitForFirstConsumer',
  provisioner = 'kubernetes.io/no-provisioner',
  extra: Partial<StorageClass> = {},
): StorageClass {
  return { metadata: { name }, provisioner, volumeBindingMode: mode, ...extra };
}

export function makeCSINode(name: string, drivers: Readonly<Record<string, number | undefined>>): CSINode {
  return {
    metadata: { name },
    spec: {
      drivers: Object.entries(drivers).map(([d, count]) => ({
        name: d,
        ...(count === undefined ? {} : { allocatable: { count } }),
      })),
    },
  };
}

/** A pod whose volumes are these claims, in order. */
export function podWithClaims(name: string, claims: readonly string[], o: PodOptions = {}): Pod {
  const pod = makePod(name, o);
  const volumes: Volume[] = claims.map((c, i) => ({
    name: `v${i}`,
    persistentVolumeClaim: { claimName: c },
  }));
  return { ...pod, spec: { ...pod.spec, volumes } };
}

export function podWithVolumes(name: string, volumes: readonly Volume[], o: PodOptions = {}): Pod {
  const pod = makePod(name, o);
  return { ...pod, spec: { ...pod.spec, volumes } };
}

/**
 * Listers over mutable arrays, and a writer that applies merge patches to them the way the API
 * server and the informers would (for PreBind tests).
 */
export class FakeVolumes implements VolumeListers {
  readonly pvs = new Map<string, PersistentVolume>();
  readonly pvcs = new Map<string, PersistentVolumeClaim>();
  readonly classes = new Map<string, StorageClass>();
  readonly csiNodes = new Map<string, CSINode>();
  readonly drivers = new Map<string, CSIDriver>();
  readonly capacities: CSIStorageCapacity[] = [];
  readonly writes: string[] = [];

  constructor(
    o: {
      pvs?: readonly PersistentVolume[];
      pvcs?: readonly PersistentVolumeClaim[];
      classes?: readonly StorageClass[];
      csiNodes?: readonly CSINode[];
      drivers?: readonly CSIDriver[];
      capacities?: readonly CSIStorageCapacity[];
    } = {},
  ) {
    for (const d of o.drivers ?? []) this.drivers.set(d.metadata.name, d);
    this.capacities.push(...(o.capacities ?? []));
    for (const v of o.pvs ?? []) this.pvs.set(v.metadata.name, v);
    for (const c of o.pvcs ?? []) this.pvcs.set(`${c.metadata.namespace ?? ''}/${c.metadata.name}`, c);
    for (const s of o.classes ?? []) this.classes.set(s.metadata.name, s);
    for (const n of o.csiNodes ?? []) this.csiNodes.set(n.metadata.name, n);
  }

  persistentVolume = (name: string) => this.pvs.get(name);
  persistentVolumes = () => [...this.pvs.values()];
  persistentVolumeClaim = (ns: string, name: string) => this.pvcs.get(`${ns}/${name}`);
  storageClass = (name: string) => this.classes.get(name);
  csiNode = (name: string) => this.csiNodes.get(name);
  csiDriver = (name: string) => this.drivers.get(name);
  csiStorageCapacities = () => this.capacities;

  /**
   * Applies patches as they come; `apply: false` records them only (nothing ever binds), and
   * `forbidStatus` answers status writes 403 as RBAC's system:volume-scheduler role would.
   */
  writer(apply = true, forbidStatus = false): VolumeWriter {
    const forbidden = () => Promise.reject(Object.assign(new Error('forbidden'), { code: 403 }));
    return {
      patchPersistentVolume: (name, patch, sub) => {
        if (sub && forbidStatus) return forbidden();
        this.writes.push(`pv ${name}${sub ? `/${sub}` : ''} ${JSON.stringify(patch)}`);
        const old = this.pvs.get(name);
        if (!old) return Promise.reject(new Error(`persistentvolumes "${name}" not found`));
        if (apply) this.pvs.set(name, merge(old, patch) as PersistentVolume);
        return Promise.resolve();
      },
      patchPersistentVolumeClaim: (ns, name, patch, sub) => {
        if (sub && forbidStatus) return forbidden();
        this.writes.push(`pvc ${ns}/${name}${sub ? `/${sub}` : ''} ${JSON.stringify(patch)}`);
        const old = this.pvcs.get(`${ns}/${name}`);
        if (!old) return Promise.reject(new Error(`persistentvolumeclaims "${name}" not found`));
        if (apply) this.pvcs.set(`${ns}/${name}`, merge(old, patch) as PersistentVolumeClaim);
        return Promise.resolve();
      },
    };
  }
}

/** RFC 7386 merge patch. */
function merge(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = merge(out[k], v);
  }
  return out;
}
