import {
  replicaSetStatusView,
  replicaSetView,
  replicationControllerStatusView,
  replicationControllerView,
  statefulSetStatusView,
  statefulSetView,
} from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../../endpoints/dispatch.js';
import type { ScopeDefaults } from '../../server/server.js';
import { installStored, type ServedView } from '../stored.js';

/**
 * apps/v1 ReplicaSets and StatefulSets (with /status), stored and validated only: Keel runs no
 * controller for them, so no pods are created (docs/resources.md). Installed before events so
 * apps keeps its place at the head of /apis, as upstream.
 */
export function installApps(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installStored(dispatcher, storage, defaults, {
      view: replicaSetView,
      statusView: replicaSetStatusView,
      keyRoot: '/replicasets',
    }).served,
    installStored(dispatcher, storage, defaults, {
      view: statefulSetView,
      statusView: statefulSetStatusView,
      keyRoot: '/statefulsets',
    }).served,
  ];
}

/** core/v1 ReplicationControllers (short name `rc`, category `all`, with /status); no replication. */
export function installReplicationControllers(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installStored(dispatcher, storage, defaults, {
      view: replicationControllerView,
      statusView: replicationControllerStatusView,
      keyRoot: '/replicationcontrollers',
    }).served,
  ];
}
