/** The messages primary and workers exchange over the cluster IPC channel. */

/** The environment variable that carries a worker's slot (1..N, kept across restarts). */
export const WORKER_SLOT_ENV = 'KEEL_APISERVER_WORKER';

export type WorkerMessage =
  /** The worker's post-start hooks finished: it serves like a whole server. */
  | { readonly keel: 'started' }
  /** Why the worker is about to exit non-zero, for the primary's log and exit. */
  | { readonly keel: 'failed'; readonly reason: string };

/** Every worker has started once: the whole process tree is ready. */
export type PrimaryMessage = { readonly keel: 'all-started' };

function isKeelMessage(m: unknown): m is { keel: unknown } {
  return typeof m === 'object' && m !== null && 'keel' in m;
}

export function isWorkerMessage(m: unknown): m is WorkerMessage {
  return isKeelMessage(m) && (m.keel === 'started' || m.keel === 'failed');
}

export function isPrimaryMessage(m: unknown): m is PrimaryMessage {
  return isKeelMessage(m) && m.keel === 'all-started';
}
