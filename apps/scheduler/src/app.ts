// First: the setting applies to the schemas built after it (see the module).
import './zod-jitless.js';
import { keelVersion } from '@keel/apimachinery';
import { ConnectionConfigError, preloadTransport, type Connection } from '@keel/client';
import { runDaemon, type Completion, type DaemonDefinition } from '@keel/lifecycle';
import type { Logger } from '@keel/log';
import { prepareSelfSigned, selfSignedHosts } from '@keel/serving';
import { SchedulerCommandOptions, schedulerCommand, type SchedulerConfig } from './command.js';
import { resolveConnection } from './runtime/connection.js';
import { SchedulerRuntime } from './runtime/runtime.js';
import { extenderErrors, profileErrors } from './runtime/scheduler.js';
import { SchedulerMetrics } from './server/metrics.js';
import { serveSecurePort, type SecurePort } from './server/secure-port.js';

/** The configuration plus the API server connection it resolved to. */
export interface SchedulerRunConfig extends SchedulerConfig {
  readonly connection: Connection;
  /**
   * --version=vX.Y.Z: the version the start-up log and the API clients' User-Agent name instead
   * of Keel's.
   */
  readonly reportedVersion: string | undefined;
}

/**
 * kube-scheduler's Setup: the options' configuration, then what it needs to run (the profiles'
 * frameworks and the client connection), so that a bad profile or a missing or broken
 * connection-config ends start-up with one `Error:` line, as bad flags do.
 */
function complete(
  options: SchedulerCommandOptions,
  reportedVersion: string | undefined,
): Completion<SchedulerRunConfig> {
  const done = options.complete();
  if (!('config' in done)) return done;
  const settings = done.config.scheduler;
  const errors = [...profileErrors(settings.configuration), ...extenderErrors(settings.configuration)];
  let connection: Connection | undefined;
  let warnings: readonly string[] = [];
  try {
    const resolved = resolveConnection(settings.configuration.clientConnection.kubeconfig, settings.master);
    connection = resolved.connection;
    warnings = resolved.warnings;
  } catch (err) {
    if (!(err instanceof ConnectionConfigError)) throw err;
    errors.push(err.message);
  }
  if (errors.length > 0 || !connection) return { errors };
  return {
    config: { ...done.config, connection, reportedVersion },
    warnings: [...(done.warnings ?? []), ...warnings],
  };
}

async function run(config: SchedulerRunConfig, logger: Logger, signal: AbortSignal): Promise<number> {
  const { reportedVersion } = config;
  // @keel/client's default names Keel's version; kube's clients name the (reported) gitVersion.
  const userAgent = reportedVersion !== undefined ? { userAgent: `keel-scheduler/${reportedVersion}` } : {};
  logger.info('Starting Keel scheduler', {
    version: reportedVersion ?? keelVersion,
    profiles: config.scheduler.configuration.profiles.map((p) => p.schedulerName).join(','),
    leaderElect: config.scheduler.configuration.leaderElection.leaderElect,
    server: config.connection.server.origin,
  });
  const shutdown = new AbortController();
  const metrics = new SchedulerMetrics(config.metrics);
  const runtime = new SchedulerRuntime({
    settings: config.scheduler,
    connection: config.connection,
    metrics,
    logger,
    ...userAgent,
  });
  // The informers and the election start once the secure port's CA lookup is done, while the
  // port finishes its certificate and listens: in kube-scheduler that lookup is part of the
  // configuration and the port's Serve does not block Run. The lookup is answered once the API
  // server answers this scheduler, so the first lists are not refused for want of its RBAC roles
  // (which would cost them a backoff).
  const failedToServe = new AbortController();
  let running: Promise<number> | undefined;
  const startRuntime = (): Promise<number> => {
    if (!running) {
      running = runtime.run(AbortSignal.any([signal, failedToServe.signal]));
      // Awaited below; a failure meanwhile is no unhandled rejection.
      running.catch(() => undefined);
    }
    return running;
  };
  let server: SecurePort | undefined;
  try {
    server = await serveSecurePort({
      config,
      logger,
      metrics,
      ...userAgent,
      shutdown: shutdown.signal,
      ...(runtime.healthCheck ? { leaderElection: runtime.healthCheck } : {}),
      onAuthReady: () => void startRuntime(),
    });
  } catch (err) {
    // A port that cannot listen ends start-up: the runtime stops first (releasing a lease taken).
    failedToServe.abort();
    await running?.catch(() => undefined);
    throw err;
  }
  // /readyz fails from the signal on, while the lease is released and bindings wind down.
  const announce = () => {
    logger.info('Shutting down', { signal: String(signal.reason) });
    shutdown.abort();
  };
  signal.addEventListener('abort', announce, { once: true });
  let code: number;
  try {
    code = await startRuntime();
  } finally {
    signal.removeEventListener('abort', announce);
    shutdown.abort();
    await server?.shutdown({ sendRetryAfter: false, drainTimeoutMs: 10_000 });
  }
  return code;
}

/**
 * Start-up work that needs no arguments, for a process spawned before it has them (apps/keel's
 * launcher calls this while it waits): loading undici, which the first request to the API server
 * would otherwise do, and generating the self-signed serving pair for the address apps/keel binds
 * the scheduler to, which main() then takes instead of generating its own (for that address only).
 * It only does ahead what main() does anyway.
 */
export async function prepare(): Promise<void> {
  // apps/keel binds the scheduler to 127.0.0.1; with another address main() generates its own.
  await Promise.all([preloadTransport(), prepareSelfSigned(selfSignedHosts({ bindAddress: '127.0.0.1' }))]);
}

/** keel-scheduler: flags, configuration, then the scheduler until SIGTERM/SIGINT or a lost lease. */
export function main(argv: readonly string[]): Promise<number> {
  const options = new SchedulerCommandOptions();
  const daemon: DaemonDefinition<SchedulerRunConfig> = {
    command: schedulerCommand(options),
    complete: (_flags, reportedVersion) => Promise.resolve(complete(options, reportedVersion)),
    run,
  };
  return runDaemon(daemon, argv);
}
