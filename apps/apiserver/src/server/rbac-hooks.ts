/**
 * The start-up steps of RBAC, registered only when RBAC authorizes requests (as the reference,
 * whose RBAC storage adds `rbac/bootstrap-roles` only then), so /readyz lists no step that does
 * nothing.
 */
import type { PostStartHook } from '@keel/health';
import { whenAborted } from '@keel/lifecycle';
import type { Storage } from '@keel/storage';
import { ClusterRoleAggregationController } from './clusterrole-aggregation.js';
import { reconcileDefaultPolicy } from './rbac-bootstrap.js';

export interface RbacHookOptions {
  /** Told about failed aggregation passes, which are retried. */
  readonly onAggregationError: (err: unknown) => void;
}

/**
 * `rbac/bootstrap-roles` reconciles the default policy; `start-clusterrole-aggregation-controller`
 * (Keel's: the reference runs aggregation in its controller manager) aggregates once the defaults
 * are written, so admin, edit and view hold their rules by the time /readyz passes, and keeps
 * following changes until shutdown.
 */
export function registerRbacHooks(
  hooks: { add(name: string, step: PostStartHook): void },
  storage: Storage,
  opts: RbacHookOptions,
): void {
  let policyWritten!: () => void;
  const written = new Promise<void>((resolve) => (policyWritten = resolve));
  hooks.add('rbac/bootstrap-roles', async () => {
    await reconcileDefaultPolicy(storage);
    policyWritten();
  });
  let controller: ClusterRoleAggregationController | undefined;
  hooks.add('start-clusterrole-aggregation-controller', async (signal) => {
    await Promise.race([written, whenAborted(signal)]);
    if (signal.aborted) return;
    // A try that failed (store down) left its watch running; the retry reuses it.
    controller ??= new ClusterRoleAggregationController(storage, { onError: opts.onAggregationError });
    await controller.start(signal);
  });
}
