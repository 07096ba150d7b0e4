import type { Authorizer } from '@keel/auth';
import type { Dialer } from '@keel/client';
import { ConfigFileError } from '@keel/config-file';
import type { StoredObject } from '@keel/resource';
import type { GroupVersionKind } from './attributes.js';
import type { PluginConfig } from './configuration.js';
import type { AdmissionMetrics } from './metrics.js';
import type { AdmissionPlugin } from './plugin.js';

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
  /** Where plugins and webhook calls are timed; absent, nothing is. */
  readonly metrics?: AdmissionMetrics | undefined;
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
  /**
   * --egress-selector-config-file's controlplane tunnel, through which webhooks named by URL (and
   * the image policy webhook) are called; undefined: directly.
   */
  readonly webhookDial?: Dialer | undefined;
  /**
   * --enable-aggregator-routing: webhooks named by a Service are called at one of its endpoints
   * (`endpoints`) rather than its cluster IP (`cluster-ip`, the default).
   */
  readonly webhookServiceRouting?: 'cluster-ip' | 'endpoints' | undefined;
  /** --egress-selector-config-file's cluster tunnel, through which Services are dialed. */
  readonly webhookServiceDial?: Dialer | undefined;
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
export function withoutConfig(
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
export function nothingToActOn(name: string): AdmissionPlugin {
  return { name, handles: () => false };
}
