import { keelVersion } from '@keel/apimachinery';
import { runDaemon, whenAborted, type DaemonDefinition } from '@keel/lifecycle';
import type { Logger } from '@keel/log';
import { apiServerCommand } from './command.js';
import { ApiServerOptions, type ApiServerConfig } from './options/options.js';

async function run(config: ApiServerConfig, logger: Logger, signal: AbortSignal): Promise<number> {
  logger.info('Starting Keel API server', {
    version: keelVersion,
    store: config.store.backend.kind,
    address: `${config.secureServing.bindAddress}:${config.secureServing.port}`,
  });
  await whenAborted(signal);
  logger.info('Shutting down', { signal: String(signal.reason) });
  return 0;
}

/** keel-apiserver: flags, configuration, then the server until SIGTERM/SIGINT. */
export function main(argv: readonly string[]): Promise<number> {
  const options = new ApiServerOptions();
  const daemon: DaemonDefinition<ApiServerConfig> = {
    command: apiServerCommand(options),
    complete: () => Promise.resolve({ config: options.complete(), warnings: options.warnings() }),
    run,
  };
  return runDaemon(daemon, argv);
}
