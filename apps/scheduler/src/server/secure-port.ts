import type { IncomingMessage, ServerResponse } from 'node:http';
import { HealthRegistries, namedCheck, pingCheck, shutdownCheck, type HealthChecker } from '@keel/health';
import { checkLogging, type Logger } from '@keel/log';
import { serveProfiling } from '@keel/profiling';
import {
  createSecureServer,
  pairFileNames,
  selfSignedHosts,
  type SecureServer,
  type ShutdownOptions,
  type ShutdownResult,
} from '@keel/serving';
import type { SchedulerConfig } from '../command.js';
import { DelegatedAuth } from './delegated-auth.js';
import type { SchedulerMetrics } from './metrics.js';
import { writeStatus } from './write-status.js';

export interface SecurePortDeps {
  readonly config: SchedulerConfig;
  readonly logger: Logger;
  readonly metrics: SchedulerMetrics;
  /** Aborted when shutdown begins: /readyz fails from then on. */
  readonly shutdown: AbortSignal;
  /** The leader-election check, when leader election is on. */
  readonly leaderElection?: HealthChecker;
  /** The User-Agent of the delegated authentication and authorization clients. */
  readonly userAgent?: string;
  /**
   * Called once delegated authentication and authorization are set up (the CA lookup in the API
   * server answered or given up on), while the port still finishes its certificate and listens.
   */
  readonly onAuthReady?: () => void;
}

/**
 * The scheduler's HTTPS port (--secure-port, 0 = off): /healthz, /livez, /readyz (with their
 * verbose and per-check forms), /metrics and /debug/pprof/ (with profiling on), behind client-certificate authentication and the
 * always-allow paths. Returns undefined when serving is off.
 */
/** The running port: shut it down to drain it and release what it holds. */
export interface SecurePort {
  shutdown(opts: ShutdownOptions): Promise<ShutdownResult>;
}

export async function serveSecurePort(deps: SecurePortDeps): Promise<SecurePort | undefined> {
  const { config, logger } = deps;
  if (config.secureServing.port === 0) {
    logger.info('Secure serving is off (--secure-port=0)');
    return undefined;
  }
  // Its CA lookup in the API server and the serving certificate (generated unless in --cert-dir)
  // are awaited together by listen(): the two are most of the port's start-up.
  const created = DelegatedAuth.create(config.delegatingAuthentication, config.delegatingAuthorization, {
    logger,
    ...(deps.userAgent !== undefined ? { userAgent: deps.userAgent } : {}),
  });
  // Reported through listen() (or the catch below), never as an unhandled rejection.
  created.catch(() => undefined);
  let auth: DelegatedAuth | undefined;
  const clientCA = created.then((a) => {
    auth = a;
    deps.onAuthReady?.();
    return a.clientCA;
  });

  const health = new HealthRegistries();
  health.addHealthChecks(
    pingCheck,
    namedCheck('log', () => checkLogging(logger)),
  );
  if (deps.leaderElection) health.addHealthChecks(deps.leaderElection);
  health.addReadyzChecks(shutdownCheck(deps.shutdown));
  const probes = health.install({
    onFailure: (path, name, err) => logger.v(2).info('Health check failed', { path, check: name, err }),
  });

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'https://localhost');
      const path = url.pathname;
      // Requests arrive only once listen() resolved, after `created`.
      if (!auth) throw new Error('delegated authentication is not set up yet');
      if (!(await auth.admit(req, res))) return;
      if (probes(req, res)) return;
      if (serveProfiling(req, res, url, { enabled: config.scheduler.configuration.enableProfiling })) return;
      if (path === '/metrics') {
        const text = await deps.metrics.render();
        res.writeHead(200, { 'Content-Type': deps.metrics.contentType });
        res.end(text);
        return;
      }
      res.writeHead(404, {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end('404 page not found\n');
    })().catch((err: unknown) => {
      logger.error('Secure port request failed', { err });
      if (!res.headersSent) writeStatus(res, err);
    });
  };

  let server: SecureServer;
  try {
    server = createSecureServer({
      config: config.secureServing,
      handler,
      logger,
      hosts: selfSignedHosts({ bindAddress: config.secureServing.bindAddress }),
      certFileNames: pairFileNames('platform-scheduler'),
      clientCA,
    });
    const address = await server.listen();
    logger.info('Serving securely', { address: `${address.address}:${address.port}` });
  } catch (err) {
    // The lookup's own failure comes first; a certificate or listen failure closes its clients.
    await created.then((a) => a.close());
    throw err;
  }
  const ready = auth;
  if (!ready) throw new Error('delegated authentication was not set up before serving');
  return {
    // The review clients close once the port has drained: requests in flight may still ask.
    shutdown: async (opts) => {
      try {
        return await server.shutdown(opts);
      } finally {
        await ready.close();
      }
    },
  };
}
