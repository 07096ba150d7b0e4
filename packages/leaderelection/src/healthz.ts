/** client-go's HealthzAdaptor as a health check for `/healthz` and `/livez`. */
import type { LeaderElector } from './elector.js';

/** Structurally the HealthChecker of `@keel/health`, so it can be added to a health registry. */
export interface LeaderElectionHealthChecker {
  readonly name: 'leaderElection';
  check(signal: AbortSignal): Promise<void>;
}

/**
 * Fails while this process believes it leads but has not renewed for longer than the lease
 * duration plus `timeoutMs`: a leader that should have stepped down but has not (a stuck event
 * loop, say) is then restarted by its liveness probe. Non-leaders always pass.
 *
 * `elector` may be a function because the check is registered before the elector exists
 * (client-go's adaptor gets its elector later through SetLeaderElection); until then it passes.
 */
export function leaderElectionCheck(
  elector: LeaderElector | (() => LeaderElector | undefined),
  timeoutMs: number,
): LeaderElectionHealthChecker {
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new RangeError(
      `leader election health check timeout must be a non-negative number of milliseconds, got ${timeoutMs}`,
    );
  }
  return {
    name: 'leaderElection',
    check() {
      try {
        const le = typeof elector === 'function' ? elector() : elector;
        le?.check(timeoutMs);
        return Promise.resolve();
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
}
