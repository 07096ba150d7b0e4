import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { ConfigFileError, prepareAdmission, withStepMetrics, type PreparedAdmission } from '@keel/admission';
import { keelVersion, versionInfo, type VersionInfo } from '@keel/apimachinery';
import { AuditConfigError, PolicyError, type Auditor } from '@keel/audit';
import {
  buildAuthenticator,
  buildAuthorizer,
  buildServiceAccountIssuer,
  ConfigError,
  rbac,
  NodeGraph,
  type BuiltAuthenticator,
  type BuiltAuthorizer,
  type BuiltServiceAccountIssuer,
} from '@keel/auth';
import { runDaemon, type Completion, type DaemonDefinition } from '@keel/lifecycle';
import type { PostStartHook } from '@keel/health';
import type { Logger } from '@keel/log';
import {
  loadEncryptionConfig,
  withStoreSpans,
  type EncryptionConfig,
  type WatchCacheSize,
} from '@keel/storage';
import { loadTracingConfig, type TracingConfig } from '@keel/tracing';
import type { EgressSelector } from '@keel/egress';
import { apiServerCommand } from './command.js';
import { ApiServerMetrics } from './metrics/index.js';
import { ApiServerOptions, type ApiServerConfig } from './options/options.js';
import { FlowController } from '@keel/flowcontrol';
import { flowControlDebugHandler } from './endpoints/flowcontrol-debug.js';
import { flowSchemaStatusStore } from './resources/flowcontrol.js';
import { installClusterResources } from './resources/cluster.js';
import { installEvents } from './resources/events.js';
import { installApps } from './resources/workloads/index.js';
import { NamespaceController } from './resources/namespaces/controller.js';
import { installNamespaces, type InstalledNamespaces } from './resources/namespaces/index.js';
import { serviceAccountIssuerHandler } from './endpoints/service-account-issuer.js';
import { admissionDeps } from './server/admission-deps.js';
import { buildAuditor } from './server/audit.js';
import { buildEgressSelector, logEgress, startTracingThroughEgress } from './server/egress.js';
import { authenticationInfo } from './server/authentication-info.js';
import { StoreTokenGetter } from './server/token-getter.js';
import { rbacSources } from './server/rbac-informers.js';
import { ServerInformers } from './server/informers.js';
import {
  FLOW_SCHEMAS_KEY,
  FlowControlConfigConsumer,
  PRIORITY_LEVELS_KEY,
} from './server/flowcontrol-config.js';
import { NodeTaintController } from './server/node-taint-controller.js';
import { ServedKinds } from './server/served-kinds.js';
import { feedNodeGraphFromInformers } from './server/node-graph-informers.js';
import { ResourceQuotaController } from './server/quota-controller.js';
import { GarbageCollector } from './server/garbage-collector/collector.js';
import { apiServerId } from './server/identity-lease.js';
import { openStorage } from './server/storage-factory.js';
import { STORED_RESOURCE_GROUPS, storedResource } from './server/stored-resources.js';
import { watchCachePolicy } from './server/watch-cache-policy.js';
import { ensureServingCertificate, runServer } from './server/server.js';
import { currentWorker, withWorkers } from './workers/index.js';

/** The configuration plus what completing it built: the authenticator and authorizer chains. */
export interface CompletedApiServer {
  readonly config: ApiServerConfig;
  readonly logging: ApiServerConfig['logging'];
  readonly authn: BuiltAuthenticator;
  readonly authz: BuiltAuthorizer;
  readonly serviceAccounts: BuiltServiceAccountIssuer;
  /** Token authentication's store lookups; attached to the store once it is open. */
  readonly tokenGetter: StoreTokenGetter;
  /** RBAC's rule index: built before the store opens, fed by the informers `run` starts. */
  readonly rbacIndex: rbac.RbacRuleIndex;
  /** What the Node authorization mode decides from; fed once the store is open. */
  readonly nodeGraph: NodeGraph | undefined;
  /** undefined when nothing is audited. */
  readonly auditor: Auditor | undefined;
  /** Where the audit sinks report failures; pointed at the logger once there is one. */
  readonly auditLog: DeferredErrorLog;
  /** The enabled admission plugins with their configuration read; built once the store is open. */
  readonly admission: PreparedAdmission;
  /** --encryption-provider-config, read and checked; undefined stores everything as plain JSON. */
  readonly encryption: EncryptionConfig | undefined;
  /** --tracing-config-file, read and checked; undefined records no spans. */
  readonly tracing: TracingConfig | undefined;
  /** The key roots the watch cache keeps, and its window; undefined with --watch-cache=false. */
  readonly watchCache: ((keyRoot: string) => WatchCacheSize) | undefined;
  /** What /version answers: the build's version, or the one --version=vX.Y.Z set. */
  readonly version: VersionInfo;
  /** --version=vX.Y.Z, which the start-up log names instead of Keel's version. */
  readonly reportedVersion: string | undefined;
  /** Made first: the audit sinks built here report to it. */
  readonly metrics: ApiServerMetrics;
  /** --egress-selector-config-file's proxies, by network. */
  readonly egress: EgressSelector;
}

/** Who the server's own writes are made as (the reference's loopback client). */
const LOOPBACK_USER = {
  name: 'system:apiserver',
  uid: '',
  groups: ['system:authenticated', 'system:masters'],
  extra: {},
};

/** The audit sinks are built before the logger exists (their files fail start-up); they log later. */
class DeferredErrorLog {
  target: Logger | undefined;
  error(msg: string, kv?: Readonly<Record<string, unknown>>): void {
    this.target?.error(msg, kv);
  }
}

function readPem(path: string | undefined): string {
  return path ? readFileSync(path, 'utf8') : '';
}

/**
 * An override for a resource Keel does not keep in its store would route nothing: refused, with
 * the names it could take.
 */
function unstoredOverrides(overrides: readonly { group: string; resource: string }[]): string[] {
  const stored = Object.entries(STORED_RESOURCE_GROUPS).map(([r, g]) => `${g}/${r}`);
  return overrides
    .filter((o) => storedResource(o.group, o.resource) === undefined)
    .map(
      (o) =>
        `--store-servers-overrides names ${o.group}/${o.resource}, which Keel does not store; it stores ${stored.join(', ')}`,
    );
}

/** Applies the options and builds what reads files (token file, CAs, policies): problems become one line each. */
function complete(
  options: ApiServerOptions,
  reportedVersion: string | undefined,
): Completion<CompletedApiServer> {
  const config = options.complete();
  const cachePolicy = watchCachePolicy(config.registry);
  const storeErrors = [...unstoredOverrides(config.store.overrides), ...cachePolicy.errors];
  if (storeErrors.length > 0) return { errors: storeErrors };
  try {
    const egress = buildEgressSelector(config.egressSelector.configFile);
    const controlplane = egress.lookup('controlplane');
    const tokenGetter = new StoreTokenGetter();
    const authn = buildAuthenticator(config.authentication, { tokenGetter, dial: controlplane });
    const rbacIndex = new rbac.RbacRuleIndex();
    const nodeGraph = config.authorization.modes.includes('Node') ? new NodeGraph() : undefined;
    const authz = buildAuthorizer(config.authorization, {
      rbacIndex,
      dial: controlplane,
      ...(nodeGraph ? { nodeGraph } : {}),
    });
    const metrics = new ApiServerMetrics(config.metrics);
    const auditLog = new DeferredErrorLog();
    const auditor = buildAuditor(config.audit, auditLog, metrics.audit, controlplane);
    const admission = prepareAdmission(config.admission.plugins, {
      configFile: config.admission.configFile,
      flags: {
        ...config.podPolicy,
        webhookClientCertificate: config.proxyClient.certificate,
        webhookDial: controlplane,
        webhookServiceRouting: config.serviceNetwork.enableAggregatorRouting ? 'endpoints' : 'cluster-ip',
        webhookServiceDial: egress.lookup('cluster'),
      },
    });
    const tracing = config.tracing.configFile ? loadTracingConfig(config.tracing.configFile) : undefined;
    const encryption = config.store.encryptionProviderConfig
      ? loadEncryptionConfig(config.store.encryptionProviderConfig).withGroups(
          (r) => STORED_RESOURCE_GROUPS[r],
        )
      : undefined;
    const serviceAccounts = buildServiceAccountIssuer(config.authentication, {
      externalHost: config.serverRun.externalHostname || config.advertiseAddress || hostname(),
      port: config.secureServing.port,
    });
    return {
      config: {
        config,
        logging: config.logging,
        authn,
        authz,
        serviceAccounts,
        tokenGetter,
        rbacIndex,
        nodeGraph,
        auditor,
        auditLog,
        admission,
        encryption,
        tracing,
        watchCache: cachePolicy.enabled,
        version: versionInfo(reportedVersion),
        reportedVersion,
        metrics,
        egress,
      },
      warnings: [
        ...options.warnings(),
        ...authn.warnings,
        ...authz.warnings,
        ...serviceAccounts.warnings,
        ...admission.warnings,
      ],
    };
  } catch (err) {
    if (
      err instanceof ConfigError ||
      err instanceof PolicyError ||
      err instanceof AuditConfigError ||
      err instanceof ConfigFileError
    )
      return { errors: [err.message] };
    throw err;
  }
}

async function run(done: CompletedApiServer, logger: Logger, signal: AbortSignal): Promise<number> {
  const { config } = done;
  done.authn.logTo?.(logger);
  done.authz.logTo?.(logger);
  done.auditLog.target = logger;
  logger.info('Starting Keel API server', {
    version: done.reportedVersion ?? keelVersion,
    store: config.store.backend.kind,
    address: `${config.secureServing.bindAddress}:${config.secureServing.port}`,
  });
  // Before the store opens, so its calls during start-up are traced too.
  logEgress(done.egress, logger);
  const stopTracing =
    done.tracing &&
    (await startTracingThroughEgress(
      done.tracing,
      { serviceName: 'apiserver', instanceId: apiServerId(hostname()), hostname: hostname() },
      done.egress,
    ));
  const opened = await openStorage(config.store, logger, {
    ...(done.encryption ? { encryption: done.encryption } : {}),
    ...(done.watchCache ? { watchCache: done.watchCache } : {}),
    dial: done.egress.lookup('etcd'),
  });
  const storage = stopTracing ? withStoreSpans(opened.storage) : opened.storage;
  done.tokenGetter.attach(storage);
  const { issuer, metadata } = done.serviceAccounts;
  const sa = config.authentication.serviceAccounts;
  // Escalation checks resolve rules from the index whatever the authorization mode, as upstream.
  const informers = new ServerInformers(storage, logger);
  done.rbacIndex.attach(rbacSources(informers));
  const rbacResolver = done.authz.rbac ?? new rbac.RBACAuthorizer(done.rbacIndex);
  if (done.nodeGraph) feedNodeGraphFromInformers(done.nodeGraph, informers);
  const kinds = new ServedKinds();
  // Built with the resources, after the admission chain that NamespaceAutoProvision creates through.
  let namespaces: InstalledNamespaces | undefined;
  const admissionMetrics = done.metrics.admission;
  const chain = done.admission.build(
    admissionDeps(storage, informers, {
      metrics: admissionMetrics,
      authorizer: done.authz.authorizer,
      resourcesFor: (kind) => kinds.resourcesFor(kind),
      createNamespace: async (name) => {
        if (!namespaces) throw new Error('namespaces are not served yet');
        const obj = { metadata: { name } };
        await namespaces.namespaces.create('', obj, obj, {
          dryRun: false,
          user: LOOPBACK_USER,
          fieldManager: 'namespace-autoprovision',
        });
      },
    }),
  );
  const admission = withStepMetrics(chain, admissionMetrics.step);
  const nodeTaints = new NodeTaintController(storage, {
    informer: informers.informer('/nodes'),
    onError: (err) => logger.v(2).info('Node taint update failed', { err }),
  });
  const flowControl = config.features.enablePriorityAndFairness
    ? new FlowControlConfigConsumer(
        flowSchemaStatusStore(storage, admission),
        informers.informer(FLOW_SCHEMAS_KEY),
        informers.informer(PRIORITY_LEVELS_KEY),
        new FlowController(
          config.limits.maxRequestsInflight + config.limits.maxMutatingRequestsInflight,
          done.metrics.flowControl,
        ),
        (err) => logger.v(2).info('Updating a FlowSchema status failed', { err }),
      )
    : undefined;
  const quotaController = new ResourceQuotaController(storage, {
    informer: (keyRoot) => informers.informer(keyRoot),
    onError: (err) => logger.error('Resource quota recalculation failed', { err }),
  });
  try {
    const worker = currentWorker();
    return await runServer(config, logger, signal, {
      ...(worker ? { worker: worker.serverParts() } : {}),
      storage,
      storeParts: opened.parts,
      authenticator: done.authn.authenticator,
      authorizer: done.authz.authorizer,
      auditor: done.auditor,
      metrics: done.metrics,
      clientCA: done.authn.clientCA ?? '',
      admission,
      version: done.version,
      startInformers: async (signal) => {
        await informers.start(signal);
        quotaController.start(signal);
        nodeTaints.start(signal);
      },
      authenticationInfo: authenticationInfo(
        readPem(config.authentication.clientCAFile || undefined),
        config.authentication.requestHeader,
        readPem(config.authentication.requestHeader?.clientCAFile),
      ),
      ...(flowControl
        ? {
            flowControl: {
              controller: flowControl.controller,
              startConsumer: (s: AbortSignal) => flowControl.start(s),
            },
          }
        : {}),
      extraHandlers: [
        ...(metadata ? [serviceAccountIssuerHandler(metadata)] : []),
        ...(flowControl ? [flowControlDebugHandler(flowControl.controller)] : []),
      ],
      controllerHooks: (dispatcher): Record<string, PostStartHook> => {
        if (!config.registry.enableGarbageCollector) return {};
        const gc = new GarbageCollector({
          storage,
          stores: () => dispatcher.stores(),
          onError: (what, err) => logger.v(2).info('Garbage collection failed; retrying', { what, err }),
        });
        // Named after the reference's garbage-collector-controller; finished once the graph
        // holds every deletable resource's objects.
        return { 'start-garbage-collector-controller': (signal) => gc.start(signal) };
      },
      startControllers: (dispatcher, signal) => {
        if (!namespaces) return;
        new NamespaceController({
          storage,
          finalize: namespaces.finalize,
          stores: () => dispatcher.stores(),
          onError: (namespace, err) =>
            logger.v(2).info('Namespace controller pass failed; retrying', { namespace, err }),
        }).start(signal);
      },
      installResources: (dispatcher, defaults) =>
        kinds.record([
          ...(namespaces = installNamespaces(dispatcher, storage, defaults)).served,
          ...installApps(dispatcher, storage, defaults),
          ...installEvents(dispatcher, storage, defaults, config.registry.eventTTL.seconds),
          ...installClusterResources(dispatcher, storage, defaults, {
            authenticator: done.authn.authenticator,
            authorizer: done.authz.authorizer,
            ruleResolver: done.authz.ruleResolver,
            apiAudiences: config.authentication.apiAudiences,
            allowPrivileged: config.podPolicy.allowPrivileged,
            tokenRequests: issuer && {
              issuer,
              apiAudiences: config.authentication.apiAudiences,
              maxExpirationSeconds: sa.maxExpiration?.seconds,
              extendExpiration: sa.extendExpiration,
            },
            rbacResolver,
            serviceNetwork: config.serviceNetwork,
          }),
        ]),
    });
  } finally {
    await stopTracing?.();
  }
}

/** keel-apiserver: flags, configuration, then the server until SIGTERM/SIGINT. */
export function main(argv: readonly string[]): Promise<number> {
  const options = new ApiServerOptions();
  const daemon: DaemonDefinition<CompletedApiServer> = {
    command: apiServerCommand(options),
    complete: (_flags, reportedVersion) => Promise.resolve(complete(options, reportedVersion)),
    run,
  };
  // --workers: this process may be the primary of several servers, or one of them.
  const workers = withWorkers(daemon, ({ config }) => ({
    count: config.workers.count,
    prepare: (logger) => ensureServingCertificate(config, logger),
  }));
  return runDaemon(workers.daemon, argv, workers.io);
}
