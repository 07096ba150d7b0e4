import { loadProtobuf, type KubeProtobuf } from '@keel/protobuf';
import type { StorageMediaType, StoredEncoding } from '@keel/storage';

/**
 * The apiVersion and kind of what each key root holds. Keel stores objects without their type
 * (the registry adds it on the way out); upstream's etcd values carry it in the envelope, so the
 * protobuf form gets it from here. Events are left out: one stored Event serves two APIs and
 * keeps fields of both, which neither message holds.
 */
const STORED_KINDS: Readonly<Record<string, readonly [apiVersion: string, kind: string]>> = {
  configmaps: ['v1', 'ConfigMap'],
  endpoints: ['v1', 'Endpoints'],
  limitranges: ['v1', 'LimitRange'],
  namespaces: ['v1', 'Namespace'],
  nodes: ['v1', 'Node'],
  persistentvolumeclaims: ['v1', 'PersistentVolumeClaim'],
  persistentvolumes: ['v1', 'PersistentVolume'],
  pods: ['v1', 'Pod'],
  replicationcontrollers: ['v1', 'ReplicationController'],
  resourcequotas: ['v1', 'ResourceQuota'],
  secrets: ['v1', 'Secret'],
  serviceaccounts: ['v1', 'ServiceAccount'],
  services: ['v1', 'Service'],
  leases: ['coordination.k8s.io/v1', 'Lease'],
  replicasets: ['apps/v1', 'ReplicaSet'],
  statefulsets: ['apps/v1', 'StatefulSet'],
  storageclasses: ['storage.k8s.io/v1', 'StorageClass'],
  csidrivers: ['storage.k8s.io/v1', 'CSIDriver'],
  csinodes: ['storage.k8s.io/v1', 'CSINode'],
  csistoragecapacities: ['storage.k8s.io/v1', 'CSIStorageCapacity'],
  poddisruptionbudgets: ['policy/v1', 'PodDisruptionBudget'],
  roles: ['rbac.authorization.k8s.io/v1', 'Role'],
  rolebindings: ['rbac.authorization.k8s.io/v1', 'RoleBinding'],
  clusterroles: ['rbac.authorization.k8s.io/v1', 'ClusterRole'],
  clusterrolebindings: ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'],
  mutatingwebhookconfigurations: ['admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration'],
  validatingwebhookconfigurations: ['admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration'],
  priorityclasses: ['scheduling.k8s.io/v1', 'PriorityClass'],
  flowschemas: ['flowcontrol.apiserver.k8s.io/v1', 'FlowSchema'],
  prioritylevelconfigurations: ['flowcontrol.apiserver.k8s.io/v1', 'PriorityLevelConfiguration'],
};

const keyRoot = (key: string): string => key.slice(1, (key.indexOf('/', 1) + 1 || key.length + 1) - 1);

/**
 * --storage-media-type for a Redis store. With the protobuf type, an object of a kind that has a
 * protobuf message is stored as upstream stores it in etcd: `k8s\0`, then a runtime.Unknown with
 * its apiVersion, kind and message. Anything else stays JSON: kinds without a message (as
 * upstream keeps custom resources), Events, and any object the message cannot hold whole (each
 * write checks that the protobuf form decodes to the same object, so no field is ever lost).
 * The other types store JSON text. Reads decode protobuf whatever the type, so a server switched
 * between types reads what was stored before.
 */
export async function storedEncoding(mediaType: StorageMediaType): Promise<StoredEncoding> {
  const pb = await loadProtobuf();
  const writesProtobuf = mediaType === 'application/vnd.platform.protobuf';
  return {
    encode: writesProtobuf ? (key, json) => encodeProtobuf(pb, key, json) : (_key, json) => json,
    decode: (_key, stored) => {
      // The envelope's type is not part of Keel's stored JSON (see STORED_KINDS).
      const { apiVersion: _v, kind: _k, ...obj } = pb.decode(Buffer.from(stored, 'latin1'));
      return JSON.stringify(obj);
    },
  };
}

function encodeProtobuf(pb: KubeProtobuf, key: string, json: string): string {
  const type = STORED_KINDS[keyRoot(key)];
  if (!type || !pb.hasKind(type[0], type[1])) return json;
  const obj = JSON.parse(json) as Record<string, unknown>;
  const bytes = pb.encode({ apiVersion: type[0], kind: type[1], ...obj });
  const { apiVersion: _v, kind: _k, ...back } = pb.decode(bytes);
  return sameButNulls(back, obj) ? bytes.toString('latin1') : json;
}

/**
 * Deep equality that takes a member whose value is null as absent. The protobuf form cannot tell
 * a nil slice, map or pointer from an absent one (Go reads both as nil and its JSON writes
 * both the same way), so an object differing from its decoding only there loses nothing.
 */
function sameButNulls(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => sameButNulls(v, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k in x) if (x[k] !== null && !sameButNulls(x[k], y[k])) return false;
  for (const k in y) if (y[k] !== null && !(k in x && x[k] !== null)) return false;
  return true;
}
