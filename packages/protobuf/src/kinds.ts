import type { Namespace, Root, Type } from 'protobufjs';

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** API groups whose name is not `<dir>.k8s.io`. */
const GROUP_NAMES: Readonly<Record<string, string>> = {
  core: '',
  apps: 'apps',
  batch: 'batch',
  autoscaling: 'autoscaling',
  policy: 'policy',
  extensions: 'extensions',
  rbac: 'rbac.authorization.k8s.io',
  flowcontrol: 'flowcontrol.apiserver.k8s.io',
  apiserverinternal: 'internal.apiserver.k8s.io',
  storagemigration: 'storagemigration.k8s.io',
};

/**
 * Kinds of meta/v1 that every group version carries (a client sends DeleteOptions with its own
 * group's apiVersion), the Status any response may be, and the discovery documents (typed `v1`,
 * or without an apiVersion at /api and /api/v1, as upstream writes them).
 */
const META_KINDS = new Set([
  'Status',
  'APIVersions',
  'APIGroupList',
  'APIGroup',
  'APIResourceList',
  'DeleteOptions',
  'CreateOptions',
  'UpdateOptions',
  'PatchOptions',
  'GetOptions',
  'ListOptions',
  'PartialObjectMetadata',
  'PartialObjectMetadataList',
  'WatchEvent',
]);

/** `<apiVersion>/<kind>` → message, for every message of every k8s.io/api package. */
export function indexKinds(root: Root): {
  lookup(apiVersion: string, kind: string): Type | undefined;
} {
  const index = new Map<string, Type>();
  const api = root.lookup('k8s.io.api') as Namespace | null;
  for (const group of api?.nestedArray ?? []) {
    const groupName = GROUP_NAMES[group.name] ?? `${group.name}.k8s.io`;
    for (const version of (group as Namespace).nestedArray ?? []) {
      const apiVersion = groupName === '' ? version.name : `${groupName}/${version.name}`;
      for (const t of (version as Namespace).nestedArray ?? []) {
        if ('fieldsArray' in t) index.set(`${apiVersion}/${t.name}`, t as Type);
      }
    }
  }
  const meta = root.lookup(META) as Namespace;
  return {
    lookup(apiVersion, kind) {
      const t = index.get(`${apiVersion}/${kind}`);
      if (t) return t;
      return META_KINDS.has(kind) ? ((meta.get(kind) as Type | null) ?? undefined) : undefined;
    },
  };
}
