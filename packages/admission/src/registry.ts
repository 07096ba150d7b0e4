import type { StoredObject } from '@keel/resource';
import { AdmissionChain } from './chain.js';
import type { AdmissionPlugin } from './plugin.js';
import { alwaysAdmit } from './plugins/always-admit.js';
import { alwaysDeny } from './plugins/always-deny.js';
import { nodeRestriction } from './plugins/node-restriction.js';

/** Reads of an in-memory copy of one kind (an informer): cluster-scoped kinds take namespace ''. */
export interface ObjectLookup<T = StoredObject> {
  get(namespace: string, name: string): T | undefined;
}

/**
 * What plugins may need from the server. The lookups are asked for while the chain is built, so
 * the server only keeps the copies an enabled plugin reads.
 */
export interface AdmissionPluginDeps {
  pods(): ObjectLookup;
  nodes(): ObjectLookup;
}

export type AdmissionPluginFactory = (deps: AdmissionPluginDeps) => AdmissionPlugin;

/** The plugins Keel implements here, by their --enable-admission-plugins name. */
export const ADMISSION_PLUGINS: ReadonlyMap<string, AdmissionPluginFactory> = new Map<
  string,
  AdmissionPluginFactory
>([
  ['AlwaysAdmit', () => alwaysAdmit],
  ['NodeRestriction', (deps) => nodeRestriction({ pods: deps.pods(), nodes: deps.nodes() })],
  ['AlwaysDeny', () => alwaysDeny],
]);

/**
 * The chain of the enabled plugins, in the order given (the admission options already sort them
 * in the real server's order). Names without a factory here are left out: they are implemented
 * elsewhere (Priority in the pod registry) or not yet.
 */
export function buildAdmissionChain(enabled: readonly string[], deps: AdmissionPluginDeps): AdmissionChain {
  return new AdmissionChain(
    enabled.flatMap((name) => {
      const factory = ADMISSION_PLUGINS.get(name);
      return factory ? [factory(deps)] : [];
    }),
  );
}
