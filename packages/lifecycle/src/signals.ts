/**
 * The real daemons' signal contract: the first SIGTERM or SIGINT starts a graceful shutdown, a
 * second one exits at once with status 1 (an operator who presses Ctrl-C twice means it).
 */
export interface ShutdownSignal {
  /** Aborted on the first SIGTERM/SIGINT; `reason` is the signal's name. */
  readonly signal: AbortSignal;
  /** Removes the process handlers (tests, or a daemon that finished on its own). */
  dispose(): void;
}

export interface SignalSource {
  on(event: 'SIGTERM' | 'SIGINT', listener: (signal: NodeJS.Signals) => void): unknown;
  off(event: 'SIGTERM' | 'SIGINT', listener: (signal: NodeJS.Signals) => void): unknown;
  exit(code: number): never;
}

export function setupSignalHandler(source: SignalSource = process): ShutdownSignal {
  const controller = new AbortController();
  const listener = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) source.exit(1);
    controller.abort(sig);
  };
  source.on('SIGTERM', listener);
  source.on('SIGINT', listener);
  return {
    signal: controller.signal,
    dispose: () => {
      source.off('SIGTERM', listener);
      source.off('SIGINT', listener);
    },
  };
}

/** Resolves when the signal aborts (at once if it already has). */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
