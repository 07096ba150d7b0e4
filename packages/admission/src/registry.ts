import { ConfigFileError } from '@keel/config-file';
import type { StoredObject } from '@keel/resource';
import { AdmissionChain } from './chain.js';
import { loadAdmissionConfiguration, type PluginConfig } from './configuration.js';
import type { AdmissionPlugin } from './plugin.js';
import { alwaysAdmit } from './plugins/always-admit.js';
import { alwaysDeny } from './plugins/always-deny.js';
import { nodeRestriction } from './plugins/node-restriction.js';
import { mutatingAdmissionWebhook, validatingAdmissionWebhook } from './plugins/webhook/index.js';

/** Reads of an in-memory copy of one kind (an informer): cluster-scoped kinds take namespace ''. */
export interface ObjectLookup<T = StoredObject> {
  get(namespace: string, name: string): T | undefined;
}

/** An in-memory copy of one kind that can also be listed. */
export interface ObjectIndex<T = StoredObject> extends ObjectLookup<T> {
  /** The objects in `namespace`; every object when `namespace` is undefined (or the kind is cluster-scoped). */
  list(namespace?: string): T[];
}

/**
 * What plugins may need from the server once it has a store. The copies are asked for while the
 * chain is built, so the server keeps (and waits at start-up for) only those an enabled plugin reads.
 */
export interface AdmissionPluginDeps {
  /** The server's watched copy of one served resource, by its plural name ('pods', 'namespaces'). */
  objects(resource: string): ObjectIndex;
  /**
   * Reads one object from the store itself, for a decision a lagging copy could get wrong (a
   * namespace created a moment ago, not yet in `objects('namespaces')`). Cluster-scoped: namespace ''.
   */
  read(resource: string, namespace: string, name: string): Promise<StoredObject | undefined>;
}

/** Plugin settings that come from flags rather than the admission configuration file. */
export interface AdmissionFlags {
  /** --default-not-ready-toleration-seconds */
  readonly defaultNotReadyTolerationSeconds: number;
  /** --default-unreachable-toleration-seconds */
  readonly defaultUnreachableTolerationSeconds: number;
  /**
   * --proxy-client-cert-file/--proxy-client-key-file: the identity presented to admission
   * webhooks; undefined to call them without a client certificate.
   */
  readonly webhookClientCertificate?: { readonly certFile: string; readonly keyFile: string } | undefined;
}

export type AdmissionPluginFactory = (deps: AdmissionPluginDeps) => AdmissionPlugin;

/**
 * One plugin by its --enable-admission-plugins name. `prepare` runs at start-up before the store
 * opens: it checks the plugin's configuration (throwing a ConfigFileError naming the file and the
 * field) and returns what builds the plugin once the server's parts exist.
 */
export interface AdmissionPluginDefinition {
  prepare(config: PluginConfig | undefined, flags: AdmissionFlags): AdmissionPluginFactory;
}

/** A plugin that takes no configuration: one given to it is an error, never silently dropped. */
function withoutConfig(name: string, factory: AdmissionPluginFactory): AdmissionPluginDefinition {
  return {
    prepare(config) {
      if (config) throw new ConfigFileError(`${config.source}: ${name} takes no configuration`);
      return factory;
    },
  };
}

/** The plugins Keel implements here, by their --enable-admission-plugins name. */
export const ADMISSION_PLUGINS: ReadonlyMap<string, AdmissionPluginDefinition> = new Map<
  string,
  AdmissionPluginDefinition
>([
  ['AlwaysAdmit', withoutConfig('AlwaysAdmit', () => alwaysAdmit)],
  [
    'NodeRestriction',
    withoutConfig('NodeRestriction', (deps) =>
      nodeRestriction({ pods: deps.objects('pods'), nodes: deps.objects('nodes') }),
    ),
  ],
  ['AlwaysDeny', withoutConfig('AlwaysDeny', () => alwaysDeny)],
  ['MutatingAdmissionWebhook', mutatingAdmissionWebhook],
  ['ValidatingAdmissionWebhook', validatingAdmissionWebhook],
]);

/** The enabled plugins with their configuration checked: builds the chain once the store is open. */
export interface PreparedAdmission {
  build(deps: AdmissionPluginDeps): AdmissionChain;
  /** e.g. configuration given for a plugin that is not enabled. */
  readonly warnings: readonly string[];
}

/**
 * Reads --admission-control-config-file and prepares the enabled plugins, in the order given (the
 * admission options already sort them in the real server's order). Names without a definition
 * here are left out: they are implemented elsewhere (Priority in the pod registry) or not yet.
 * Throws ConfigFileError.
 */
export function prepareAdmission(
  enabled: readonly string[],
  opts: { readonly configFile?: string | undefined; readonly flags: AdmissionFlags },
): PreparedAdmission {
  const configs = opts.configFile
    ? loadAdmissionConfiguration(opts.configFile)
    : new Map<string, PluginConfig>();
  const on = new Set(enabled);
  const warnings = [...configs.entries()]
    .filter(([name]) => !on.has(name))
    .map(([name, c]) => `${c.source}: configuration for ${name}, which is not enabled, is not used`);
  const factories = enabled.flatMap((name) => {
    const def = ADMISSION_PLUGINS.get(name);
    return def ? [def.prepare(configs.get(name), opts.flags)] : [];
  });
  return {
    warnings,
    build: (deps) => new AdmissionChain(factories.map((f) => f(deps))),
  };
}
