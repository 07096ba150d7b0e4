import cluster from 'node:cluster';
import { namedCheck, type HealthChecker } from '@keel/health';
import type { SignalSource } from '@keel/lifecycle';
import type { Logger } from '@keel/log';
import { isPrimaryMessage, WORKER_SLOT_ENV, type WorkerMessage } from './protocol.js';

/** The response header naming the worker that answered (only sent with more than one worker). */
export const WORKER_HEADER = 'X-Keel-Worker';

/**
 * This process's part in a --workers process tree: its slot, the `workers` readyz check (failing
 * until the primary reports that every worker has started once, so the port is ready only when the
 * whole tree is) and the reports it sends the primary.
 */
export class WorkerRole {
  private allStarted = false;

  constructor(readonly slot: number) {
    process.on('message', (m: unknown) => {
      if (isPrimaryMessage(m)) this.allStarted = true;
    });
  }

  /** What runServer takes: the readyz check, the header and the start-up report. */
  serverParts(): {
    readyz: HealthChecker;
    responseHeaders: Readonly<Record<string, string>>;
    started(): void;
  } {
    return {
      readyz: namedCheck('workers', () => {
        if (!this.allStarted) throw new Error('not every worker has started yet');
      }),
      responseHeaders: { [WORKER_HEADER]: String(this.slot) },
      started: () => void this.send({ keel: 'started' }),
    };
  }

  /** The logger with `worker=<slot>` on every line. */
  logger(logger: Logger): Logger {
    return logger.with({ worker: this.slot });
  }

  /** Tells the primary why this worker exits non-zero; resolves once the message is sent. */
  failed(reason: string): Promise<void> {
    return this.send({ keel: 'failed', reason });
  }

  private send(msg: WorkerMessage): Promise<void> {
    return new Promise((resolve) => {
      if (!process.connected || !process.send) return resolve();
      process.send(msg, undefined, {}, () => resolve());
    });
  }
}

/**
 * Signals as a worker takes them: SIGTERM starts its drain (the primary sends it; an operator may
 * too), SIGINT is ignored, since a terminal's Ctrl-C reaches the whole process group and the
 * primary turns it into one SIGTERM per worker.
 */
export const workerSignals: SignalSource = {
  on: (event, listener) => process.on(event, event === 'SIGINT' ? ignore : listener),
  off: (event, listener) => process.off(event, event === 'SIGINT' ? ignore : listener),
  exit: (code) => process.exit(code),
};

function ignore(): void {}

let role: WorkerRole | undefined | null = null;

/** This process's worker role, or undefined outside a --workers process tree. */
export function currentWorker(): WorkerRole | undefined {
  if (role === null) {
    const slot = Number(process.env[WORKER_SLOT_ENV]);
    role = cluster.isWorker && Number.isInteger(slot) && slot > 0 ? new WorkerRole(slot) : undefined;
  }
  return role;
}
