import { namespaceStatusView, namespaceView } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../endpoints/dispatch.js';
import type { ScopeDefaults } from '../server/server.js';
import { installStored, type ServedView } from './stored.js';

/**
 * Namespaces (core v1, cluster-scoped) and namespaces/status, under the key root the bootstrap
 * step writes the system namespaces to. Clients look namespaces up too: kubectl checks the
 * namespace after a NotFound.
 */
export function installNamespaces(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  const { served } = installStored(dispatcher, storage, defaults, {
    view: namespaceView,
    statusView: namespaceStatusView,
    keyRoot: '/namespaces',
  });
  return [served];
}
