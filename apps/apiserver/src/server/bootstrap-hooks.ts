import { setTimeout as sleep } from 'node:timers/promises';
import { newUid } from '@keel/apimachinery';
import { systemPriorityClassList, systemPriorityClassObject } from '@keel/coreapi';
import type { BootSequenceChecks, HealthChecker, PostStartHook, PostStartHooks } from '@keel/health';
import { isStorageError, type Storage } from '@keel/storage';
import { ensureFlowControlConfiguration } from './flowcontrol-config.js';
import { IdentityLeaseController, type IdentityLeaseOptions } from './identity-lease.js';
import { NamespaceDefaultsController } from './namespace-defaults.js';
import { PlatformServiceController, type PlatformServiceOptions } from './platform-service.js';
import { registerRbacHooks, type RbacHookOptions } from './rbac-hooks.js';

export interface BootstrapDeps {
  readonly storage: Storage;
  /** Group/versions this server serves (for the API service registrations). */
  readonly groupVersions: readonly string[];
  /** PEM bundles published for extension servers (client CA, request-header CA). */
  /** The extension-apiserver-authentication ConfigMap's data (see authenticationInfo). */
  readonly authenticationInfo: Readonly<Record<string, string>>;
  readonly admissionPlugins: readonly string[];
  /** Runs when the watch machinery is up (a watch opened and its first bookmark seen). */
  readonly startInformers: (signal: AbortSignal) => Promise<void>;
  /**
   * The `autoregister-completion` check and where it goes: it is listed between the
   * autoregistration hook and the OpenAPI controller, as in the real server's verbose output.
   */
  readonly checks: BootSequenceChecks;
  readonly autoregisterCompletion: HealthChecker;
  /**
   * The CA bundle every namespace's `kube-root-ca.crt` ConfigMap publishes ('' for none); read
   * when a namespace is synced, so it may depend on the listener having started.
   */
  readonly rootCA: () => string;
  /** Whether rootCA is the cluster's CA (shared by every server) rather than this server's own. */
  readonly rootCAIsClusterWide: () => boolean;
  /** Told about a failed sync of the namespace defaults (retried). */
  readonly onNamespaceDefaultsError?: (err: unknown) => void;
  /** Set when RBAC is among --authorization-mode: the default policy and aggregation run only then. */
  readonly rbac?: RbacHookOptions;
  /** Controllers with hooks of their own (the garbage collector), registered by these names. */
  readonly controllerHooks?: Readonly<Record<string, PostStartHook>>;
  /**
   * Set with --enable-priority-and-fairness: the config consumer to start, and the bootstrap
   * configuration is created.
   */
  readonly flowControl?: { readonly startConsumer: (signal: AbortSignal) => Promise<void> };
  /** Set when the APIServerIdentity gate is on: the server publishes its identity lease. */
  readonly identityLease?: IdentityLeaseOptions;
  /** The `platform` Service and its Endpoints (part of the bootstrap controller). */
  readonly platformService?: PlatformServiceOptions;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 2_000;

/**
 * Runs a start-up step until the store answers: the real server's hooks wait for etcd rather
 * than fail, so a store that is down at start leaves /readyz red (the hook `not finished`) and the
 * server recovers by itself once the store is back, instead of exiting. Other errors fail the
 * hook; the stop signal ends the wait.
 */
export function waitingForStore(step: PostStartHook): PostStartHook {
  return async (signal) => {
    for (let delay = FIRST_RETRY_MS; ; delay = Math.min(delay * 2, MAX_RETRY_MS)) {
      try {
        await step(signal);
        return;
      } catch (err) {
        const transient = isStorageError(err, 'Unreachable') || isStorageError(err, 'Timeout');
        if (!transient || signal.aborted) throw err;
      }
      await sleep(delay, undefined, { signal });
    }
  };
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Creates an object unless it already exists: bootstrap steps run on every start, against shared state. */
async function ensure(
  storage: Storage,
  key: string,
  obj: Record<string, unknown> & { metadata: Record<string, unknown> },
): Promise<void> {
  try {
    await storage.create(key, {
      ...obj,
      metadata: { uid: newUid(), creationTimestamp: now(), ...obj.metadata },
    });
  } catch (err) {
    if (!isStorageError(err, 'KeyExists')) throw err;
  }
}

/**
 * kube-system is created beside platform-system for unmodified reference components, which
 * hard-code it (docs/architecture.md, "System namespaces").
 */
const SYSTEM_NAMESPACES = [
  'default',
  'platform-system',
  'platform-public',
  'platform-node-lease',
  'kube-system',
];
/** Where extension-apiserver-authentication is published: Keel's name and the reference's. */
const AUTHENTICATION_INFO_NAMESPACES = ['platform-system', 'kube-system'];

/**
 * The API server's start-up steps, each registered as `poststarthook/<name>` so /readyz stays red
 * until it has finished (docs/operations.md lists which step backs which name). Every step is
 * idempotent: several API servers on one Redis run them all.
 */
export function registerBootstrapHooks(
  postStartHooks: PostStartHooks,
  deps: BootstrapDeps,
): { stop: () => Promise<void> } {
  const { storage } = deps;
  const platform = deps.platformService && new PlatformServiceController(storage, deps.platformService);
  const hooks = {
    add: (name: string, step: PostStartHook) => postStartHooks.add(name, waitingForStore(step)),
  };
  hooks.add('start-platform-apiserver-admission-initializer', () =>
    // The admission chain is fixed at start-up; an empty one would admit everything silently.
    deps.admissionPlugins.length === 0
      ? Promise.reject(new Error('no admission plugins configured'))
      : Promise.resolve(),
  );
  hooks.add('generic-apiserver-start-informers', (signal) => deps.startInformers(signal));
  const { flowControl } = deps;
  if (flowControl) {
    hooks.add('priority-and-fairness-config-consumer', (signal) => flowControl.startConsumer(signal));
    // The filter is in the chain from the start; it has nothing to wait for.
    hooks.add('priority-and-fairness-filter', () => Promise.resolve());
  }
  // Keel serves no CustomResourceDefinitions: the CRD informers start, and sync, on an empty set.
  hooks.add(
    'start-apiextensions-informers',
    async () => void (await storage.list('/customresourcedefinitions', { limit: 1 })),
  );
  hooks.add('start-apiextensions-controllers', () => Promise.resolve());
  hooks.add('crd-informer-synced', async () => void (await storage.list('/customresourcedefinitions')));
  let namespaceDefaults: NamespaceDefaultsController | undefined;
  hooks.add('bootstrap-controller', async (signal) => {
    for (const name of SYSTEM_NAMESPACES) {
      await ensure(storage, `/namespaces/${name}`, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      });
    }
    // The controller manager's serviceaccount and root-ca-cert-publisher controllers, which Keel
    // runs here: the hook finishes once the namespaces stored now have their defaults.
    namespaceDefaults ??= new NamespaceDefaultsController(storage, {
      rootCA: deps.rootCA,
      rootCAIsClusterWide: deps.rootCAIsClusterWide,
      ...(deps.onNamespaceDefaultsError ? { onError: deps.onNamespaceDefaultsError } : {}),
    });
    await namespaceDefaults.start(signal);
    await platform?.start(signal);
  });
  if (deps.rbac) registerRbacHooks(hooks, storage, deps.rbac);
  hooks.add('scheduling/bootstrap-system-priority-classes', async () => {
    // Created when missing, never overwritten: as upstream, a changed system class stays changed.
    for (const c of systemPriorityClassList) {
      const { metadata, ...rest } = systemPriorityClassObject(c);
      await ensure(storage, `/priorityclasses/${c.name}`, { ...rest, metadata: { ...metadata } });
    }
  });
  if (flowControl)
    hooks.add('apiserver/bootstrap-system-flowcontrol-configuration', () =>
      ensureFlowControlConfiguration(storage),
    );
  hooks.add('start-cluster-authentication-info-controller', async () => {
    for (const namespace of AUTHENTICATION_INFO_NAMESPACES) {
      await storage.guaranteedUpdate(
        `/configmaps/${namespace}/extension-apiserver-authentication`,
        (current) => ({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            ...(current?.metadata ?? { uid: newUid(), creationTimestamp: now() }),
            name: 'extension-apiserver-authentication',
            namespace,
          },
          data: { ...deps.authenticationInfo },
        }),
        { ignoreNotFound: true },
      );
    }
  });
  if (deps.identityLease) {
    const identity = new IdentityLeaseController(storage, deps.identityLease);
    hooks.add('start-platform-apiserver-identity-lease-controller', (signal) =>
      identity.startRenewing(signal),
    );
    hooks.add('start-platform-apiserver-identity-lease-garbage-collector', (signal) =>
      identity.startCollecting(signal),
    );
  }
  for (const [name, hook] of Object.entries(deps.controllerHooks ?? {})) hooks.add(name, hook);
  hooks.add(
    'start-platform-aggregator-informers',
    async () => void (await storage.list('/apiregistration.k8s.io/apiservices', { limit: 1 })),
  );
  const registered = async () => {
    for (const gv of deps.groupVersions) {
      const [group, version] = gv.includes('/') ? gv.split('/') : ['', gv];
      const name = `${version}.${group === '' ? '' : group}`.replace(/\.$/, '');
      await ensure(storage, `/apiregistration.k8s.io/apiservices/${name}`, {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name, labels: { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' } },
        spec: { group, version, groupPriorityMinimum: 18000, versionPriority: 15 },
        status: {
          conditions: [
            {
              type: 'Available',
              status: 'True',
              reason: 'Local',
              message: 'Local APIServices are always available',
              lastTransitionTime: now(),
            },
          ],
        },
      });
    }
  };
  hooks.add('apiservice-registration-controller', registered);
  hooks.add('apiservice-status-available-controller', registered);
  hooks.add('platform-apiserver-autoregistration', registered);
  deps.checks.addBootSequenceChecks(deps.autoregisterCompletion);
  hooks.add('apiservice-openapi-controller', () => Promise.resolve());
  return { stop: async () => platform?.stop() };
}
