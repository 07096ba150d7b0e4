import { keelVersion } from '@keel/apimachinery';
import { runDaemon, whenAborted, type DaemonDefinition } from '@keel/lifecycle';
import type { Logger } from '@keel/log';
import { SchedulerCommandOptions, schedulerCommand, type SchedulerConfig } from './command.js';
import { SchedulerMetrics } from './server/metrics.js';
import { serveSecurePort } from './server/secure-port.js';

async function run(config: SchedulerConfig, logger: Logger, signal: AbortSignal): Promise<number> {
  logger.info('Starting Keel scheduler', {
    version: keelVersion,
    profiles: config.scheduler.configuration.profiles.map((p) => p.schedulerName).join(','),
    leaderElect: config.scheduler.configuration.leaderElection.leaderElect,
  });
  const shutdown = new AbortController();
  const metrics = new SchedulerMetrics(config.metrics);
  const server = await serveSecurePort({ config, logger, metrics, shutdown: shutdown.signal });
  await whenAborted(signal);
  shutdown.abort();
  logger.info('Shutting down', { signal: String(signal.reason) });
  await server?.shutdown({ sendRetryAfter: false, drainTimeoutMs: 10_000 });
  return 0;
}

/** keel-scheduler: flags, configuration, then the scheduler until SIGTERM/SIGINT. */
export function main(argv: readonly string[]): Promise<number> {
  const options = new SchedulerCommandOptions();
  const daemon: DaemonDefinition<SchedulerConfig> = {
    command: schedulerCommand(options),
    complete: () => Promise.resolve(options.complete()),
    run,
  };
  return runDaemon(daemon, argv);
}
