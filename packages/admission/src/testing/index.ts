/** Test helpers: the chain over plain arrays of objects instead of the server's informers. */
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

/** Deps whose `objects(resource)` reads `store[resource]` (missing kinds are empty); `asked` records each call. */
export function depsOf(store: Record<string, StoredObject[]>): AdmissionPluginDeps & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    objects(resource) {
      asked.push(resource);
      return indexOf((store[resource] ??= []));
    },
    read(resource, namespace, name) {
      return Promise.resolve(indexOf(store[resource] ?? []).get(namespace, name));
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
