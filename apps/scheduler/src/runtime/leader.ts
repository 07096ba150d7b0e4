import type { RestClient } from '@keel/client';
import {
  LeaderElector,
  defaultIdentity,
  leaderElectionCheck,
  newLock,
  type EventRecorder,
  type LeaderCallbacks,
  type LeaderElectionConfig,
  type LeaderElectionHealthChecker,
} from '@keel/leaderelection';
import type { Logger } from '@keel/log';
import { restObjectClient } from './object-client.js';

/** kube-scheduler's NewLeaderHealthzAdaptor(20 s): how far past its lease a stuck leader may go. */
export const LEADER_HEALTH_TOLERANCE_MS = 20_000;

export interface ElectorDeps {
  readonly config: LeaderElectionConfig;
  /** Its own client (kube's leader-election client), so scheduling traffic never delays renewals. */
  readonly client: Pick<RestClient, 'get' | 'create' | 'update'>;
  readonly recorder: EventRecorder;
  readonly callbacks: LeaderCallbacks;
  readonly logger: Logger;
  readonly identity?: string;
}

/**
 * The elector kube-scheduler builds: the lock `--leader-elect-resource-lock` names, identity
 * `<hostname>_<uuid>`, the configured timings, and the lease released on a clean shutdown.
 */
export function newSchedulerElector(deps: ElectorDeps): LeaderElector {
  const { config } = deps;
  const identity = deps.identity ?? defaultIdentity();
  const lock = newLock(
    config.resourceLock,
    config.resourceNamespace,
    config.resourceName,
    identity,
    restObjectClient(deps.client),
    deps.recorder,
  );
  return new LeaderElector({
    lock,
    leaseDuration: config.leaseDuration,
    renewDeadline: config.renewDeadline,
    retryPeriod: config.retryPeriod,
    releaseOnCancel: true,
    name: config.resourceName,
    callbacks: deps.callbacks,
    logger: deps.logger,
  });
}

/**
 * The `leaderElection` check for /healthz, registered before the elector exists (the secure port
 * starts first); it passes until there is one.
 */
export function electorHealthCheck(current: () => LeaderElector | undefined): LeaderElectionHealthChecker {
  return leaderElectionCheck(current, LEADER_HEALTH_TOLERANCE_MS);
}
