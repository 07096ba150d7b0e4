/**
 * Set by a supervisor that starts a daemon as its child (`keel up`, `startControlPlane`): the
 * daemon shuts down gracefully once that parent is gone. A parent killed with SIGKILL cannot stop
 * its children itself, and Linux would otherwise leave them running, reparented.
 */
export const EXIT_WITH_PARENT_ENV = 'KEEL_EXIT_WITH_PARENT';

export interface ParentWatchOptions {
  readonly ppid?: () => number;
  readonly intervalMs?: number;
}

/**
 * Calls `onGone` once when the parent process changes (it died and the process was reparented).
 * Returns the function that stops watching. The timer never keeps the process alive.
 */
export function watchParent(onGone: () => void, opts: ParentWatchOptions = {}): () => void {
  const ppid = opts.ppid ?? (() => process.ppid);
  const parent = ppid();
  const timer = setInterval(() => {
    if (ppid() === parent) return;
    clearInterval(timer);
    onGone();
  }, opts.intervalMs ?? 500);
  timer.unref();
  return () => clearInterval(timer);
}
