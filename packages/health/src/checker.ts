/**
 * A named health check. `check` resolves when healthy and rejects when not; the rejection's text is
 * shown only on the per-check path (`/readyz/<name>`), never in the aggregate body.
 *
 * `signal` aborts when the HTTP client goes away (or a {@link timeoutCheck} budget runs out), so a
 * check that waits on I/O should pass it on.
 */
export interface HealthChecker {
  readonly name: string;
  check(signal: AbortSignal): Promise<void>;
}

/** The text a failed check contributes to logs and per-check bodies (Go's `%v` of an error). */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Throws unless `name` can be served as `/<root>/<name>`: an empty name would claim `/<root>/`,
 * which must stay a 404.
 */
export function assertCheckName(name: string): void {
  if (name === '') throw new Error('a health check needs a non-empty name');
}

/**
 * Adapts a function into a {@link HealthChecker}. A synchronous throw counts as a failure, the same
 * as a rejection, so simple checks can be written without `async`.
 */
export function namedCheck(name: string, fn: (signal: AbortSignal) => Promise<void> | void): HealthChecker {
  assertCheckName(name);
  return {
    name,
    async check(signal) {
      await fn(signal);
    },
  };
}

/** `ping`: always passes; proves the server can answer at all. */
export const pingCheck: HealthChecker = namedCheck('ping', () => undefined);

/**
 * `shutdown`: fails once `signal` has aborted. Added to readyz only, so load balancers stop sending
 * traffic during the shutdown delay while livez keeps the process from being restarted.
 */
export function shutdownCheck(signal: AbortSignal): HealthChecker {
  return namedCheck('shutdown', () => {
    if (signal.aborted) throw new Error('process is shutting down');
  });
}

/**
 * Wraps `checker` (keeping its name) so that it fails once it has run for `timeoutMs`: a probe that
 * hangs on a dead dependency must still answer before the prober's own timeout. The wrapped check's
 * signal aborts at the deadline so it can stop its work.
 */
export function timeoutCheck(checker: HealthChecker, timeoutMs: number): HealthChecker {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(
      `timeout for health check "${checker.name}" must be a positive number of milliseconds, got ${timeoutMs}`,
    );
  }
  return {
    name: checker.name,
    async check(signal) {
      const deadline = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const err = new Error(`health check "${checker.name}" timed out after ${timeoutMs}ms`);
          deadline.abort(err);
          reject(err);
        }, timeoutMs);
      });
      try {
        await Promise.race([checker.check(AbortSignal.any([signal, deadline.signal])), expired]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
