/** Test helpers: the chain over plain arrays of objects instead of the server's informers. */
import { alreadyExists, conflictModified, notFound } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import type { AdmissionChain } from '../chain.js';
import {
  prepareAdmission,
  type AdmissionFlags,
  type AdmissionPluginDeps,
  type ObjectIndex,
} from '../registry.js';

export const DEFAULT_FLAGS: AdmissionFlags = {
  defaultNotReadyTolerationSeconds: 300,
  defaultUnreachableTolerationSeconds: 300,
};

/** An index over `objects` (read at each call, so a test may change the array). */
export function indexOf(objects: StoredObject[]): ObjectIndex {
  const ns = (o: StoredObject) => o.metadata?.namespace ?? '';
  return {
    get: (namespace, name) => objects.find((o) => ns(o) === namespace && o.metadata?.name === name),
    list: (namespace) =>
      objects.filter((o) => namespace === undefined || ns(o) === namespace || ns(o) === ''),
  };
}

/**
 * Deps whose `objects(resource)` reads `store[resource]` (missing kinds are empty); `asked` records
 * each call. `createNamespace` adds an Active namespace to `store.namespaces`.
 */
export function depsOf(
  store: Record<string, StoredObject[]>,
  over: Partial<Pick<AdmissionPluginDeps, 'authorizer' | 'resourcesFor'>> = {},
): AdmissionPluginDeps & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    authorizer: over.authorizer ?? { authorize: () => Promise.resolve({ decision: 'allow', reason: '' }) },
    resourcesFor: over.resourcesFor ?? ((kind) => [`${kind.kind.toLowerCase()}s`]),
    objects(resource) {
      asked.push(resource);
      return indexOf((store[resource] ??= []));
    },
    read(resource, namespace, name) {
      return Promise.resolve(indexOf(store[resource] ?? []).get(namespace, name));
    },
    createNamespace(name) {
      const namespaces = (store['namespaces'] ??= []);
      if (namespaces.some((n) => n.metadata?.name === name))
        return Promise.reject(alreadyExists({ group: '', resource: 'namespaces' }, name));
      const created = {
        metadata: { name },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      };
      namespaces.push(created);
      return Promise.resolve();
    },
    list(resource, namespace) {
      return Promise.resolve(
        (store[resource] ?? []).filter((o) => (o.metadata?.namespace ?? '') === namespace),
      );
    },
    replaceStatus(resource, obj) {
      return Promise.resolve(replaceStatusIn((store[resource] ??= []), resource, obj));
    },
  };
}

/** The chain of `enabled` as the server builds it. */
export function chainOf(
  enabled: readonly string[],
  deps: AdmissionPluginDeps,
  opts: { configFile?: string; flags?: Partial<AdmissionFlags> } = {},
): AdmissionChain {
  return prepareAdmission(enabled, {
    configFile: opts.configFile,
    flags: { ...DEFAULT_FLAGS, ...opts.flags },
  }).build(deps);
}

export { podOf, refusalOf, writeOf } from './writes.js';

/** The store's compare-and-swap of a status, over an array (resourceVersions count up from 1). */
function replaceStatusIn(objects: StoredObject[], resource: string, obj: StoredObject): StoredObject {
  const meta = obj.metadata;
  const i = objects.findIndex(
    (o) => o.metadata?.namespace === meta.namespace && o.metadata?.name === meta.name,
  );
  const current = objects[i];
  const qr = { group: '', resource };
  if (current === undefined) throw notFound(qr, meta.name ?? '');
  if (current.metadata.resourceVersion !== meta.resourceVersion) throw conflictModified(qr, meta.name ?? '');
  const status = (obj as unknown as { status?: unknown }).status;
  const next = {
    ...current,
    status,
    metadata: {
      ...current.metadata,
      resourceVersion: String(Number(current.metadata.resourceVersion ?? '0') + 1),
    },
  } as StoredObject;
  objects[i] = next;
  return structuredClone(next);
}
