import type { Authorizer } from '@keel/auth';
import { ConfigFileError } from '@keel/config-file';
import type { StoredObject } from '@keel/resource';
import type { GroupVersionKind } from './attributes.js';
import { AdmissionChain } from './chain.js';
import { loadAdmissionConfiguration, type PluginConfig } from './configuration.js';
import type { AdmissionPlugin } from './plugin.js';
import { alwaysAdmit } from './plugins/always-admit.js';
import { alwaysDeny } from './plugins/always-deny.js';
import { eventRateLimit, parseEventRateLimitConfig } from './plugins/event-rate-limit/index.js';
import { limitRanger } from './plugins/limit-ranger.js';
import { nodeRestriction } from './plugins/node-restriction.js';
import { resourceQuota } from './plugins/resource-quota.js';
import { parseQuotaConfig } from './plugins/resource-quota-config.js';
import { ownerReferencesPermissionEnforcement } from './plugins/owner-references-permission.js';
import { runtimeClass } from './plugins/runtime-class.js';
import { UNSERVED_PLUGINS } from './plugins/unserved.js';
import { imagePolicyWebhookDefinition } from './plugins/image-policy-webhook.js';
import { podSecurityDefinition } from './plugins/pod-security/index.js';
import { namespaceAutoProvision } from './plugins/namespace-autoprovision.js';
import { namespaceExists } from './plugins/namespace-exists.js';
import { namespaceLifecycle } from './plugins/namespace-lifecycle.js';
import { namespaceSource } from './plugins/namespace-lookup.js';
import { priority } from './plugins/priority.js';
import { serviceAccount } from './plugins/service-account.js';
import { mutatingAdmissionWebhook, validatingAdmissionWebhook } from './plugins/webhook/index.js';

import { alwaysPullImages } from './plugins/always-pull-images.js';
import { defaultTolerationSeconds } from './plugins/default-toleration-seconds.js';
import { extendedResourceToleration } from './plugins/extended-resource-toleration.js';
import { limitPodHardAntiAffinityTopology } from './plugins/limit-pod-hard-anti-affinity-topology.js';
import { parsePodNodeSelectorConfig, podNodeSelector } from './plugins/pod-node-selector.js';
import {
  parseTolerationRestrictionConfig,
  podTolerationRestriction,
} from './plugins/pod-toleration-restriction.js';
import { securityContextDeny } from './plugins/security-context-deny.js';
import { taintNodesByCondition } from './plugins/taint-nodes-by-condition.js';
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
  /** The server's authorizer, for permissions beyond the request's own (kube's SetAuthorizer). */
  readonly authorizer: Authorizer;
  /** The resources serving a kind (kube's RESTMapper), e.g. v1 Pod → ['pods']; empty when none does. */
  resourcesFor(kind: GroupVersionKind): readonly string[];
  /**
   * Creates an Active namespace as a client's create would (uid, creationTimestamp, the
   * `kubernetes` finalizer). Rejects with the server's StatusError, AlreadyExists included.
   */
  createNamespace(name: string): Promise<void>;
  /** Lists one namespace of a resource from the store itself (a copy that has none may lag). */
  list(resource: string, namespace: string): Promise<StoredObject[]>;
  /**
   * Stores `obj`'s status in place of the stored object's if that still has
   * `obj.metadata.resourceVersion` (compare-and-swap); rejects with a 409 Conflict StatusError
   * when it changed, 404 when it is gone. Resolves the object as written.
   */
  replaceStatus(resource: string, obj: StoredObject): Promise<StoredObject>;
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
function withoutConfig(
  name: string,
  factory: (deps: AdmissionPluginDeps, flags: AdmissionFlags) => AdmissionPlugin,
): AdmissionPluginDefinition {
  return {
    prepare(config, flags) {
      if (config) throw new ConfigFileError(`${config.source}: ${name} takes no configuration`);
      return (deps) => factory(deps, flags);
    },
  };
}

/** A plugin for kinds Keel does not serve: in the chain (so it is listed) but never called. */
function nothingToActOn(name: string): AdmissionPlugin {
  return { name, handles: () => false };
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
  [
    'EventRateLimit',
    {
      prepare(config) {
        const limits = parseEventRateLimitConfig(config);
        return () => eventRateLimit(limits);
      },
    },
  ],
  [
    'OwnerReferencesPermissionEnforcement',
    withoutConfig('OwnerReferencesPermissionEnforcement', (deps) =>
      ownerReferencesPermissionEnforcement(deps),
    ),
  ],
  ['RuntimeClass', withoutConfig('RuntimeClass', () => runtimeClass)],
  ...[...UNSERVED_PLUGINS.keys()].map((name): [string, AdmissionPluginDefinition] => [
    name,
    withoutConfig(name, () => nothingToActOn(name)),
  ]),
  ['PodSecurity', podSecurityDefinition],
  ['ImagePolicyWebhook', imagePolicyWebhookDefinition],
  [
    'NamespaceLifecycle',
    withoutConfig('NamespaceLifecycle', (deps) => namespaceLifecycle(namespaceSource(deps))),
  ],
  ['NamespaceExists', withoutConfig('NamespaceExists', (deps) => namespaceExists(namespaceSource(deps)))],
  [
    'NamespaceAutoProvision',
    withoutConfig('NamespaceAutoProvision', (deps) =>
      namespaceAutoProvision(namespaceSource(deps), (name) => deps.createNamespace(name)),
    ),
  ],
  [
    'DefaultTolerationSeconds',
    withoutConfig('DefaultTolerationSeconds', (_deps, flags) =>
      defaultTolerationSeconds({
        notReady: flags.defaultNotReadyTolerationSeconds,
        unreachable: flags.defaultUnreachableTolerationSeconds,
      }),
    ),
  ],
  ['TaintNodesByCondition', withoutConfig('TaintNodesByCondition', () => taintNodesByCondition)],
  ['AlwaysPullImages', withoutConfig('AlwaysPullImages', () => alwaysPullImages)],
  [
    'PodNodeSelector',
    {
      prepare(config) {
        const selectors = parsePodNodeSelectorConfig(config);
        return (deps) => podNodeSelector(selectors, deps);
      },
    },
  ],
  [
    'PodTolerationRestriction',
    {
      prepare(config) {
        const tolerations = parseTolerationRestrictionConfig(config);
        return (deps) => podTolerationRestriction(tolerations, deps);
      },
    },
  ],
  [
    'ExtendedResourceToleration',
    withoutConfig('ExtendedResourceToleration', () => extendedResourceToleration),
  ],
  ['SecurityContextDeny', withoutConfig('SecurityContextDeny', () => securityContextDeny)],
  [
    'LimitPodHardAntiAffinityTopology',
    withoutConfig('LimitPodHardAntiAffinityTopology', () => limitPodHardAntiAffinityTopology),
  ],
  [
    'ServiceAccount',
    withoutConfig('ServiceAccount', (deps) =>
      serviceAccount({
        serviceAccounts: deps.objects('serviceaccounts'),
        readServiceAccount: (namespace, name) => deps.read('serviceaccounts', namespace, name),
      }),
    ),
  ],
  [
    'Priority',
    withoutConfig('Priority', (deps) =>
      priority({
        classes: deps.objects('priorityclasses'),
        readClass: (name) => deps.read('priorityclasses', '', name),
      }),
    ),
  ],
  [
    'LimitRanger',
    withoutConfig('LimitRanger', (deps) =>
      limitRanger({
        limitRanges: deps.objects('limitranges'),
        listLive: (namespace) => deps.list('limitranges', namespace),
      }),
    ),
  ],
  [
    'ResourceQuota',
    {
      prepare(config) {
        const parsed = parseQuotaConfig(config);
        return (deps) =>
          resourceQuota({
            quotas: deps.objects('resourcequotas'),
            listLive: (namespace) => deps.list('resourcequotas', namespace),
            replaceStatus: (quota) => deps.replaceStatus('resourcequotas', quota),
            config: parsed,
          });
      },
    },
  ],
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
 * admission options already sort them in the real server's order). Throws ConfigFileError.
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
    // The options accept only known names, and every known name has a definition (tested).
    if (!def) throw new Error(`admission plugin ${name} has no definition`);
    return [def.prepare(configs.get(name), opts.flags)];
  });
  return {
    warnings,
    build: (deps) => new AdmissionChain(factories.map((f) => f(deps))),
  };
}
