import { setMaxListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Admission } from '@keel/admission';
import type { VersionInfo } from '@keel/apimachinery';
import type { Auditor } from '@keel/audit';
import {
  ALL_UNAUTHENTICATED,
  ANONYMOUS_USER,
  type Authenticator,
  type Authorizer,
  type UserInfo,
} from '@keel/auth';
import {
  HealthRegistries,
  namedCheck,
  pingCheck,
  PostStartHooks,
  shutdownCheck,
  type HealthChecker,
  type PostStartHook,
  toMiddleware,
} from '@keel/health';
import type { FlowController } from '@keel/flowcontrol';
import { whenAborted } from '@keel/lifecycle';
import { checkLogging, type Logger } from '@keel/log';
import {
  apiserverCertFileNames,
  createSecureServer,
  ensureSelfSignedCert,
  http1Classes,
  http2Compatible,
  selfSignedHosts,
} from '@keel/serving';
import type { Storage } from '@keel/storage';
import { tracingEnabled } from '@keel/tracing';
import { profilingHandler } from '../endpoints/profiling.js';
import {
  metricsHandler,
  pollStorageObjects,
  pollStorageSize,
  storedResources,
  type ApiServerMetrics,
  type WatchEventMetrics,
} from '../metrics/index.js';
import { ResourceDispatcher, type ServedResource } from '../endpoints/dispatch.js';
import { discoveryHandler } from '../endpoints/discovery/handler.js';
import { fromViews } from '../endpoints/discovery/groups.js';
import { openapiHandler } from '../endpoints/openapi/handler.js';
import { context } from '../filters/context.js';
import { apiVersionOf } from '../registry/resource-view.js';
import { decodeRequest } from '../filters/request-info.js';
import { withRoutableTarget } from '../filters/request-target.js';
import type { ApiServerConfig } from '../options/options.js';
import { registerBootstrapHooks } from './bootstrap-hooks.js';
import { serviceRanges } from '../resources/services/ranges.js';
import { buildHandlerChain } from './handler-chain.js';
import { notFoundHandler } from './not-found.js';

export interface ServerParts {
  readonly storage: Storage;
  /** Each store behind `storage` with its endpoint (several with --store-servers-overrides). */
  readonly storeParts: readonly { readonly endpoint: string; readonly storage: Storage }[];
  readonly authenticator: Authenticator;
  readonly authorizer: Authorizer;
  /** The audit policy and sinks; undefined when nothing is audited. */
  readonly auditor?: Auditor | undefined;
  /** What GET /metrics renders; every part reports to it. */
  readonly metrics: ApiServerMetrics;
  /** The PEM bundle the listener verifies client certificates against (x509 and front proxy); '' when none. */
  readonly clientCA: string;
  /** Published in platform-system/extension-apiserver-authentication for delegating servers. */
  readonly authenticationInfo: Readonly<Record<string, string>>;
  /** The admission chain of --enable-admission-plugins / --disable-admission-plugins. */
  readonly admission: Admission;
  /** The /version body. */
  readonly version: VersionInfo;
  /** Non-resource endpoints served before the resources (service account issuer discovery). */
  readonly extraHandlers?: readonly RequestHandler[];
  /**
   * Starts the app's own informers (RBAC's copies, the node graph's, admission's) and resolves once they have
   * synced; part of `generic-apiserver-start-informers`, so /readyz waits for it. Called again
   * when that step is retried.
   */
  readonly startInformers?: (signal: AbortSignal) => Promise<void>;
  /**
   * Starts the controllers Keel runs in the API server (it has no controller manager) once the
   * post-start hooks have finished; they run until shutdown begins.
   */
  readonly startControllers?: (dispatcher: ResourceDispatcher, signal: AbortSignal) => void;
  /**
   * Controllers started by post-start hooks of their own, named as upstream (each hook finishes
   * once its controller has read the store), given the served resources' stores.
   */
  readonly controllerHooks?: (dispatcher: ResourceDispatcher) => Readonly<Record<string, PostStartHook>>;
  /**
   * With --enable-priority-and-fairness: the controller the chain queues requests through and
   * the start of its config consumer.
   */
  readonly flowControl?: {
    readonly controller: FlowController;
    readonly startConsumer: (signal: AbortSignal) => Promise<void>;
  };
  /**
   * With --workers: the worker's part of the process tree. Its readyz check joins /readyz, its
   * headers go on every response, and `started` is called once the post-start hooks finished.
   */
  readonly worker?: {
    readonly readyz: HealthChecker;
    readonly responseHeaders: Readonly<Record<string, string>>;
    started(): void;
  };
  /** Installs the served resources on the dispatcher; returns their views (for discovery and OpenAPI). */
  installResources(dispatcher: ResourceDispatcher, scopeDefaults: ScopeDefaults): readonly ServedResource[];
}

export interface ScopeDefaults {
  readonly logger: Logger;
  readonly maxRequestBodyBytes: number;
  readonly minRequestTimeoutSeconds: number;
  readonly maxConnectionBytesPerSec: number;
  readonly deleteCollectionWorkers: number;
  /** --enable-garbage-collector: deletes add the collector's finalizers. */
  readonly garbageCollector: boolean;
  readonly watchListEnabled: boolean;
  /** The configured admission chain every stored resource's writes pass. */
  readonly admission: Admission;
  /** Where watches count the events they send. */
  readonly watchEvents: WatchEventMetrics;
  trackLongRunning(res: ServerResponse, stop: () => void): void;
}

const ANONYMOUS: UserInfo = { name: ANONYMOUS_USER, uid: '', groups: [ALL_UNAUTHENTICATED], extra: {} };

/** kube-apiserver's MaxRequestBodyBytes. */
const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

function isLongRunning(req: IncomingMessage): boolean {
  return decodeRequest(req)?.info.verb === 'watch';
}

/** The names a generated serving certificate covers. */
export function servingHosts(config: ApiServerConfig): string[] {
  return selfSignedHosts({
    bindAddress: config.secureServing.bindAddress,
    ...(config.advertiseAddress ? { advertiseAddress: config.advertiseAddress } : {}),
    ...(config.serverRun.externalHostname ? { externalHostname: config.serverRun.externalHostname } : {}),
  });
}

/**
 * Generates the self-signed serving certificate in --cert-dir now unless certificate files are
 * given or it is already there: a --workers primary does it once, before forking, so every
 * worker loads the same one instead of racing to write its own.
 */
export async function ensureServingCertificate(config: ApiServerConfig, logger: Logger): Promise<void> {
  const { certDir, certFile, keyFile } = config.secureServing;
  if ((certFile !== '' && keyFile !== '') || certDir === '') return;
  await ensureSelfSignedCert({
    certDir,
    hosts: servingHosts(config),
    fileNames: apiserverCertFileNames,
    logger,
  });
}

/** Sets `headers` on every response before the chain runs (nothing to wrap without them). */
function withResponseHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  if (!headers) return handler;
  const entries = Object.entries(headers);
  return (req, res) => {
    for (const [k, v] of entries) res.setHeader(k, v);
    handler(req, res);
  };
}

/**
 * Composes the API server and runs it until `signal` aborts, then shuts down in the real
 * server's order: /readyz fails at once, requests are still served for --shutdown-delay-duration,
 * then the listener drains (in-flight requests finish, watches end; with
 * --shutdown-send-retry-after new requests get 429) and the store closes.
 */
export async function runServer(
  config: ApiServerConfig,
  logger: Logger,
  signal: AbortSignal,
  parts: ServerParts,
): Promise<number> {
  const { storage, metrics } = parts;
  const shutdownInitiated = new AbortController();
  // Every post-start hook, informer and controller (several per served resource, about 70
  // resources) listens on it at once; that is not a leak, so Node's warning at 64 is raised.
  setMaxListeners(512, shutdownInitiated.signal);
  const health = new HealthRegistries({ livezGracePeriodMs: config.lifecycle.livezGracePeriod.milliseconds });
  health.addHealthChecks(
    pingCheck,
    namedCheck('log', () => checkLogging(logger)),
  );
  health.addBootSequenceCheck(
    namedCheck('store', () => storage.healthCheck(config.store.healthcheckTimeout.milliseconds)),
    namedCheck('store', () => storage.readinessCheck(config.store.readycheckTimeout.milliseconds)),
  );

  const { apiEnablement } = config;
  const dispatcher = new ResourceDispatcher(apiEnablement.isResourceEnabled);
  // Watches register with the server, which is built after the handlers that register them.
  const serverRef: { current?: ReturnType<typeof createSecureServer> } = {};
  const installed = parts.installResources(dispatcher, {
    logger,
    maxRequestBodyBytes: MAX_REQUEST_BODY_BYTES,
    minRequestTimeoutSeconds: config.limits.minRequestTimeoutSeconds,
    maxConnectionBytesPerSec: config.limits.maxConnectionBytesPerSec,
    deleteCollectionWorkers: config.registry.deleteCollectionWorkers,
    garbageCollector: config.registry.enableGarbageCollector,
    watchListEnabled: config.featureGates.enabled('WatchList'),
    admission: parts.admission,
    watchEvents: metrics.watchEvents,
    trackLongRunning: (res, stop) => serverRef.current?.trackLongRunning(res, stop),
  });
  // --runtime-config turns off what it does not know, so a group/version installed without being
  // listed in SERVED_GROUP_VERSIONS would vanish without a word; fail loudly instead.
  const unknown = [...new Set(installed.map((v) => apiVersionOf(v)))].filter(
    (gv) => !apiEnablement.groupVersions.has(gv),
  );
  if (unknown.length > 0)
    throw new Error(`Installed group/versions missing from SERVED_GROUP_VERSIONS: ${unknown.join(', ')}`);
  // Discovery, OpenAPI, the object-count metrics and the APIServices see only what is served.
  const views = installed.filter((v) => apiEnablement.isResourceEnabled(apiVersionOf(v), v.resource));
  const groupVersions = [...new Set(views.map((v) => apiVersionOf(v)))];

  const hooks = new PostStartHooks(health);
  let registrationDone = false;
  const bootstrap = registerBootstrapHooks(hooks, {
    checks: health,
    autoregisterCompletion: namedCheck('autoregister-completion', () => {
      if (!registrationDone) throw new Error('API services not yet registered');
    }),
    storage,
    groupVersions,
    controllerHooks: parts.controllerHooks?.(dispatcher) ?? {},
    authenticationInfo: parts.authenticationInfo,
    admissionPlugins: config.admission.plugins,
    // The --client-ca-file bundle (kubeadm's cluster CA), else the CA of the serving certificate.
    rootCA: () => parts.clientCA || (serverRef.current?.servingCertificate?.caPem ?? ''),
    rootCAIsClusterWide: () => parts.clientCA !== '',
    onNamespaceDefaultsError: (err: unknown) =>
      logger.error("Syncing a namespace's default ServiceAccount and root CA failed", { err }),
    ...(parts.flowControl ? { flowControl: { startConsumer: parts.flowControl.startConsumer } } : {}),
    ...(config.featureGates.enabled('APIServerIdentity')
      ? {
          identityLease: {
            ...config.lifecycle.identityLease,
            onError: (err: unknown) => logger.error('Renewing or collecting identity leases failed', { err }),
          },
        }
      : {}),
    platformService: {
      ranges: serviceRanges(storage, config.serviceNetwork),
      namespace: config.serviceNetwork.masterServiceNamespace,
      securePort: config.secureServing.port,
      nodePort: config.serviceNetwork.platformServiceNodePort,
      advertiseAddress: config.advertiseAddress ?? '127.0.0.1',
      reconciler: config.serviceNetwork.endpointReconcilerType,
      onError: (err: unknown) => logger.error('Reconciling the platform Service failed', { err }),
    },
    ...(config.authorization.modes.includes('RBAC')
      ? {
          rbac: {
            onAggregationError: (err: unknown) => logger.error('Cluster role aggregation failed', { err }),
          },
        }
      : {}),
    startInformers: async (hookSignal) => {
      // The watch machinery is up when a watch opens and delivers its initial bookmark.
      const ac = new AbortController();
      const stop = () => ac.abort();
      // Removed again: the hook is retried while the store is down, each try on the same signal.
      hookSignal.addEventListener('abort', stop, { once: true });
      try {
        for await (const ev of storage.watch('/events', {
          resourceVersion: '',
          bookmarks: true,
          signal: ac.signal,
        })) {
          if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') {
            ac.abort();
            if (ev.type === 'ERROR') throw ev.error;
          }
        }
      } finally {
        hookSignal.removeEventListener('abort', stop);
      }
      await parts.startInformers?.(hookSignal);
    },
  });
  health.addReadyzChecks(shutdownCheck(shutdownInitiated.signal));
  if (parts.worker) health.addReadyzChecks(parts.worker.readyz);
  const healthHandler = toMiddleware(
    health.install({
      onFailure: (path, name, err) => logger.v(2).info('Health check failed', { path, check: name, err }),
    }),
  );

  void pollStorageObjects(
    parts.storage,
    metrics,
    () => storedResources(views),
    config.store.countMetricPollPeriod.milliseconds,
    shutdownInitiated.signal,
  );
  void pollStorageSize(
    parts.storeParts,
    metrics,
    config.store.dbMetricPollInterval.milliseconds,
    shutdownInitiated.signal,
  );
  const dispatch: RequestHandler = (req, res, next) => {
    const { url, info, user } = context(res);
    // Authentication always sets a user (anonymous included) before a request gets here.
    if (!dispatcher.handle(req, res, url, info, user ?? ANONYMOUS)) next();
  };
  const app = buildHandlerChain(
    {
      logger,
      authenticator: parts.authenticator,
      authorizer: parts.authorizer,
      auditor: parts.auditor,
      strictTransportSecurity: config.serverRun.strictTransportSecurity,
      corsAllowedOrigins: config.serverRun.corsAllowedOrigins,
      goawayChance: config.serverRun.goawayChance,
      compression: config.featureGates.enabled('APIResponseCompression'),
      http2DosMitigation: config.featureGates.enabled('UnauthenticatedHTTP2DOSMitigation'),
      tracing: tracingEnabled(),
      maxRequestsInFlight: config.limits.maxRequestsInflight,
      maxMutatingRequestsInFlight: config.limits.maxMutatingRequestsInflight,
      priorityAndFairness: parts.flowControl?.controller,
      requestTimeoutMs: config.limits.requestTimeout.milliseconds,
      metrics,
    },
    [
      healthHandler as RequestHandler,
      discoveryHandler(
        fromViews(views, { storageVersionHash: config.featureGates.enabled('StorageVersionHash') }),
        {
          serverAddress: `${config.advertiseAddress ?? '127.0.0.1'}:${config.secureServing.port}`,
          version: parts.version,
        },
      ),
      openapiHandler(views),
      metricsHandler(metrics),
      profilingHandler({ enabled: config.features.profiling }),
      ...(parts.extraHandlers ?? []),
      dispatch,
      notFoundHandler(),
    ],
  );

  const server = createSecureServer({
    config: config.secureServing,
    handler: withResponseHeaders(parts.worker?.responseHeaders, withRoutableTarget(http2Compatible(app))),
    // Requests are made with Express's prototypes rather than given them one by one.
    http1: http1Classes(app),
    logger,
    hosts: servingHosts(config),
    certFileNames: apiserverCertFileNames,
    ...(parts.clientCA !== '' ? { clientCA: parts.clientCA } : {}),
    isLongRunning,
  });
  serverRef.current = server;
  const address = await server.listen();
  logger.info('Serving securely', { address: `${address.address}:${address.port}` });
  // One turn of the event loop before the post-start hooks: on the embedded store they run as one
  // long chain of promise jobs, and the log's end-of-turn write (the line above, which
  // startControlPlane waits for to start the scheduler) would otherwise wait until they finish.
  await new Promise<void>((resolve) => setImmediate(resolve));

  let exitCode = 0;
  hooks.runAll(shutdownInitiated.signal).then(
    () => {
      registrationDone = true;
      logger.v(1).info('All post-start hooks finished');
      parts.startControllers?.(dispatcher, shutdownInitiated.signal);
      parts.worker?.started();
    },
    (err: unknown) => {
      // Hooks still waiting for the store when a shutdown begins are stopped, not failed.
      if (shutdownInitiated.signal.aborted) {
        logger.info('Post-start hooks stopped by the shutdown');
        return;
      }
      // A failed start-up step leaves the server unable to do its job: exit non-zero so a
      // supervisor restarts it, as the real server does.
      logger.error('A post-start hook failed', { err });
      exitCode = 1;
      shutdownInitiated.abort();
    },
  );

  await Promise.race([whenAborted(signal), whenAborted(shutdownInitiated.signal)]);
  shutdownInitiated.abort();
  const delay = config.lifecycle.shutdownDelay.milliseconds;
  logger.info('Shutdown initiated', { delay: config.lifecycle.shutdownDelay.toString() });
  // Upstream's pre-shutdown step: this server's address leaves the platform endpoints first.
  await bootstrap
    .stop()
    .catch((err: unknown) =>
      logger.error('Removing this server from the platform endpoints failed', { err }),
    );
  if (delay > 0 && exitCode === 0) await new Promise((r) => setTimeout(r, delay));
  const drained = await server.shutdown({
    sendRetryAfter: config.lifecycle.shutdownSendRetryAfter,
    drainTimeoutMs: config.limits.requestTimeout.milliseconds,
  });
  if (drained.forced)
    logger.warning('Requests were still running at the drain deadline', {
      abandoned: drained.abandonedRequests,
    });
  // Events still buffered go out before exit; no request can add more once the listener drained.
  await parts.auditor?.shutdown();
  await storage.close();
  logger.info('Shut down cleanly');
  return exitCode;
}
