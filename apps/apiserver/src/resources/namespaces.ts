import { namespaceView } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../endpoints/dispatch.js';
import { GenericStore } from '../registry/generic-store.js';
import type { ResourceView } from '../registry/resource-view.js';
import type { ScopeDefaults } from '../server/server.js';

/**
 * Namespaces (core v1, cluster-scoped), under the key root the bootstrap step writes the system
 * namespaces to. Clients look namespaces up too: kubectl checks the namespace after a NotFound.
 */
export function installNamespaces(dispatcher: ResourceDispatcher, storage: Storage, defaults: ScopeDefaults): ResourceView[] {
  const view: ResourceView = namespaceView;
  const store = new GenericStore({ storage, view, views: [view], keyRoot: '/namespaces' });
  dispatcher.add({ ...defaults, store, view });
  return [view];
}
