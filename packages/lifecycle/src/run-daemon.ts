import {
  parseCommandLine,
  reportCommandLine,
  type CommandDefinition,
  type NamedFlagSets,
  type Streams,
} from '@keel/flags';
import { createLogger, type LoggingConfig, type Logger } from '@keel/log';
import { EXIT_WITH_PARENT_ENV, watchParent } from './parent-watch.js';
import { setupSignalHandler, type SignalSource } from './signals.js';

/** What completing the configuration decided: run with it, or stop now (errors, or a one-shot action). */
export type Completion<C> =
  | { readonly config: C; readonly warnings?: readonly string[] }
  | { readonly errors: readonly string[] }
  | { readonly exitCode: number };

export interface DaemonDefinition<C extends { readonly logging: LoggingConfig }> {
  readonly command: CommandDefinition;
  /**
   * Applies the validated options and loads what they point at (files); never throws for bad
   * input. `reportedVersion` is what `--version=vX.Y.Z` set, for the daemon to report instead of
   * its build's version.
   */
  complete(flags: NamedFlagSets, reportedVersion: string | undefined): Promise<Completion<C>>;
  /** Runs until `signal` aborts, shuts down gracefully and returns the exit code. */
  run(config: C, logger: Logger, signal: AbortSignal): Promise<number>;
}

export interface DaemonIO extends Streams {
  readonly signals?: SignalSource;
  readonly stderr?: NodeJS.WritableStream;
}

export const processIO: DaemonIO = {
  write: (stream, text) => void process[stream].write(text),
};

/**
 * The whole life of a daemon process: flags, configuration, logging, signals. Bad input ends in
 * one line per problem and status 1, never a stack trace; a clean shutdown ends in status 0.
 */
export async function runDaemon<C extends { readonly logging: LoggingConfig }>(
  def: DaemonDefinition<C>,
  argv: readonly string[],
  io: DaemonIO = processIO,
): Promise<number> {
  const line = parseCommandLine(def.command, argv);
  const early = reportCommandLine(line, io);
  if (early !== undefined || line.action !== 'run') return early ?? 1;

  const completion = await def.complete(line.flags, line.reportedVersion);
  if ('errors' in completion) {
    for (const e of completion.errors) io.write('stderr', `Error: ${e}\n`);
    return 1;
  }
  if ('exitCode' in completion) return completion.exitCode;

  const logger = createLogger(completion.config.logging, io.stderr ? { stream: io.stderr } : {});
  for (const w of completion.warnings ?? []) logger.warning(w);
  logFlags(logger, line.flags);
  const shutdown = setupSignalHandler(io.signals);
  const stopWatchingParent =
    process.env[EXIT_WITH_PARENT_ENV] === '1'
      ? watchParent(() => {
          logger.info('The parent process is gone: shutting down');
          process.kill(process.pid, 'SIGTERM');
        })
      : () => undefined;
  // Signal listeners do not keep Node's event loop alive; a daemon with nothing else pending
  // (no listener configured) must still run until it is told to stop.
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  try {
    return await def.run(completion.config, logger, shutdown.signal);
  } catch (err) {
    logger.error('Daemon failed', { err });
    return 1;
  } finally {
    clearInterval(keepAlive);
    stopWatchingParent();
    shutdown.dispose();
    await logger.close();
  }
}

/** Logs every flag's effective value at V(1), as the real daemons do. */
function logFlags(logger: Logger, flags: NamedFlagSets): void {
  const v = logger.v(1);
  if (!v.enabled) return;
  for (const flag of flags.all().sort((a, b) => (a.name < b.name ? -1 : 1))) {
    v.info(`FLAG: --${flag.name}=${JSON.stringify(flag.valueText())}`);
  }
}
