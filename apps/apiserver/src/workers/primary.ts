import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@keel/log';
import { isWorkerMessage, WORKER_SLOT_ENV, type PrimaryMessage } from './protocol.js';

export interface PrimaryOptions {
  readonly count: number;
  /** Start-up failures in a row after which a worker is given up on and the primary exits 1. */
  readonly startFailureLimit?: number;
  /** The first restart delay; it doubles with every failed start, up to `maxBackoffMs`. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
}

/** One worker position, 1..N: the process in it is replaced when it dies. */
interface Slot {
  readonly id: number;
  worker: Worker | undefined;
  /** Whether the current process reported its post-start hooks finished. */
  started: boolean;
  /** Start-ups in a row that ended before the worker started. */
  failedStarts: number;
  /** What the current process said before exiting non-zero. */
  reason: string | undefined;
  restart: NodeJS.Timeout | undefined;
}

/**
 * The primary of a --workers process tree: it serves nothing itself. It forks one worker per slot
 * (each re-runs this program with the same arguments, the shared port handed out by node:cluster),
 * tells them all once every one has started (their /readyz then passes), restarts a worker that
 * dies with a doubling delay, gives up (status 1) on one that keeps failing before it starts, and
 * on `signal` sends every worker SIGTERM and waits for their drains: status 0 when all exit 0.
 */
export function runPrimary(logger: Logger, signal: AbortSignal, opts: PrimaryOptions): Promise<number> {
  const limit = opts.startFailureLimit ?? 3;
  const backoff = opts.backoffMs ?? 500;
  const maxBackoff = opts.maxBackoffMs ?? 30_000;
  const slots: Slot[] = Array.from({ length: opts.count }, (_, i) => ({
    id: i + 1,
    worker: undefined,
    started: false,
    failedStarts: 0,
    reason: undefined,
    restart: undefined,
  }));
  let allStarted = false;
  let stopping = false;
  let exitCode = 0;

  return new Promise<number>((resolve) => {
    const finishIfDone = () => {
      if (!stopping || slots.some((s) => s.worker !== undefined)) return;
      if (exitCode === 0) logger.info('All workers shut down cleanly', { workers: slots.length });
      resolve(exitCode);
    };

    const stopAll = () => {
      if (stopping) return;
      stopping = true;
      for (const s of slots) {
        clearTimeout(s.restart);
        s.restart = undefined;
        s.worker?.process.kill('SIGTERM');
      }
      finishIfDone();
    };

    const send = (w: Worker, msg: PrimaryMessage) => {
      if (w.isConnected()) w.send(msg);
    };

    const fork = (slot: Slot) => {
      slot.restart = undefined;
      slot.started = false;
      slot.reason = undefined;
      const w = cluster.fork({ [WORKER_SLOT_ENV]: String(slot.id) });
      slot.worker = w;
      w.on('message', (m: unknown) => {
        if (!isWorkerMessage(m)) return;
        if (m.keel === 'failed') {
          slot.reason = m.reason;
          return;
        }
        slot.started = true;
        slot.failedStarts = 0;
        logger.v(1).info('Worker started', { worker: slot.id, pid: w.process.pid });
        if (allStarted) return send(w, { keel: 'all-started' });
        if (slots.every((s) => s.started)) {
          allStarted = true;
          logger.info('All workers started', { workers: slots.length });
          for (const s of slots) if (s.worker) send(s.worker, { keel: 'all-started' });
        }
      });
      w.on('exit', (code: number | null, sig: string | null) => {
        slot.worker = undefined;
        const reason = slot.reason ?? (sig ? `killed by ${sig}` : `exited with status ${code}`);
        if (stopping) {
          // A worker told to stop while still loading dies of the SIGTERM itself (its handlers
          // are not installed yet): it was serving nothing, so that is a clean stop too.
          const stoppedBeforeServing = sig === 'SIGTERM' && !slot.started;
          if (code !== 0 && !stoppedBeforeServing) {
            exitCode = 1;
            logger.error('Worker did not shut down cleanly', { worker: slot.id, pid: w.process.pid, reason });
          }
          return finishIfDone();
        }
        if (!slot.started) slot.failedStarts++;
        if (slot.failedStarts >= limit) {
          logger.error('Worker keeps failing at start-up; stopping the server', {
            worker: slot.id,
            failures: slot.failedStarts,
            reason,
          });
          exitCode = 1;
          return stopAll();
        }
        const delay = Math.min(maxBackoff, backoff * 2 ** slot.failedStarts);
        logger.error('Worker exited unexpectedly; restarting it', {
          worker: slot.id,
          pid: w.process.pid,
          reason,
          delay: `${delay}ms`,
        });
        slot.restart = setTimeout(() => fork(slot), delay);
      });
    };

    logger.info('Starting workers', { workers: slots.length, pid: process.pid });
    for (const s of slots) fork(s);
    if (signal.aborted) stopAll();
    else signal.addEventListener('abort', stopAll, { once: true });
  });
}
