import {
  replicaSetScale,
  replicaSetStatusView,
  replicaSetView,
  replicationControllerScale,
  replicationControllerStatusView,
  replicationControllerView,
  statefulSetScale,
  statefulSetStatusView,
  statefulSetView,
  type ScaleAccess,
} from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../../endpoints/dispatch.js';
import type { InternalObject, ResourceView } from '../../registry/resource-view.js';
import type { ScopeDefaults } from '../../server/server.js';
import { installStored, type ServedView } from '../stored.js';
import { installScale } from './scale.js';

/** A workload with /status and /scale. */
function installScalable<W extends InternalObject>(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
  opts: { view: ResourceView; statusView: ResourceView; keyRoot: string; scale: ScaleAccess<W> },
): ServedView {
  const stored = installStored(dispatcher, storage, defaults, opts);
  const scale = installScale(dispatcher, storage, defaults, stored, opts.scale);
  // Discovery lists subresources by name, as upstream: scale before status.
  return { ...stored.served, subresources: [scale, ...(stored.served.subresources ?? [])] };
}

/**
 * apps/v1 ReplicaSets and StatefulSets (with /status and /scale), stored and validated only: Keel
 * runs no controller for them, so no pods are created (docs/resources.md). Installed before events
 * so apps keeps its place at the head of /apis, as upstream.
 */
export function installApps(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installScalable(dispatcher, storage, defaults, {
      view: replicaSetView,
      statusView: replicaSetStatusView,
      keyRoot: '/replicasets',
      scale: replicaSetScale,
    }),
    installScalable(dispatcher, storage, defaults, {
      view: statefulSetView,
      statusView: statefulSetStatusView,
      keyRoot: '/statefulsets',
      scale: statefulSetScale,
    }),
  ];
}

/** core/v1 ReplicationControllers (short name `rc`, category `all`, with /status and /scale); no replication. */
export function installReplicationControllers(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installScalable(dispatcher, storage, defaults, {
      view: replicationControllerView,
      statusView: replicationControllerStatusView,
      keyRoot: '/replicationcontrollers',
      scale: replicationControllerScale,
    }),
  ];
}
