import cluster from 'node:cluster';
import { processIO, type DaemonDefinition, type DaemonIO } from '@keel/lifecycle';
import type { Logger, LoggingConfig } from '@keel/log';
import { LineAtomicStream } from './log-stream.js';
import { runPrimary } from './primary.js';
import { currentWorker, workerSignals } from './worker.js';

export { defaultWorkers, WorkersOptions, type WorkersConfig } from './options.js';
export { currentWorker, WORKER_HEADER, type WorkerRole } from './worker.js';

/** What the primary needs from the completed configuration. */
export interface WorkersPlan {
  readonly count: number;
  /** Done once in the primary before forking (a generated certificate every worker must share). */
  readonly prepare: (logger: Logger) => Promise<void>;
}

/**
 * A daemon that runs as --workers asks. Flags are parsed, validated and completed in every
 * process, so a bad flag fails in the primary, once, before anything is forked. With a count of 1
 * the daemon runs as it always did; with more, this process becomes the primary and each worker
 * (the same program, re-run by node:cluster) runs the daemon with its slot in every log line.
 */
export function withWorkers<C extends { readonly logging: LoggingConfig }>(
  def: DaemonDefinition<C>,
  plan: (config: C) => WorkersPlan,
): { readonly daemon: DaemonDefinition<C>; readonly io: DaemonIO } {
  const role = currentWorker();
  if (!cluster.isPrimary && role) {
    return {
      io: { ...processIO, signals: workerSignals, stderr: new LineAtomicStream() },
      daemon: {
        command: def.command,
        // The primary already printed the warnings; N more copies would say nothing new.
        complete: async (flags, reportedVersion) => {
          const c = await def.complete(flags, reportedVersion);
          return 'config' in c ? { config: c.config } : c;
        },
        run: async (config, logger, signal) => {
          const log = role.logger(logger);
          let code: number;
          try {
            code = await def.run(config, log, signal);
          } catch (err) {
            log.error('Daemon failed', { err });
            await role.failed(err instanceof Error ? err.message : String(err));
            return 1;
          }
          if (code !== 0) await role.failed(`exited with status ${code}`);
          // The IPC channel must not keep a worker that has shut down alive.
          process.channel?.unref();
          return code;
        },
      },
    };
  }
  return {
    io: processIO,
    daemon: {
      ...def,
      run: async (config, logger, signal) => {
        const workers = plan(config);
        if (workers.count <= 1) return def.run(config, logger, signal);
        await workers.prepare(logger);
        return runPrimary(logger, signal, { count: workers.count });
      },
    },
  };
}
