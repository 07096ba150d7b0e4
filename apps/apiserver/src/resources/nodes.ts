import { nodeStatusView, nodeView } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../endpoints/dispatch.js';
import type { ScopeDefaults } from '../server/server.js';
import { installStored, type ServedView } from './stored.js';

/** Nodes (core v1, cluster-scoped) and nodes/status, which only changes the status. */
export function installNodes(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installStored(dispatcher, storage, defaults, {
      view: nodeView,
      statusView: nodeStatusView,
      keyRoot: '/nodes',
    }).served,
  ];
}
