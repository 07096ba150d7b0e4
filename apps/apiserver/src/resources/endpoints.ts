import { endpointsView } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../endpoints/dispatch.js';
import type { ScopeDefaults } from '../server/server.js';
import { installStored, type ServedView } from './stored.js';

/** Endpoints (core v1, namespaced); a PUT may create one, as the real strategy allows. */
export function installEndpoints(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installStored(dispatcher, storage, defaults, { view: endpointsView, keyRoot: '/endpoints' }).served,
  ];
}
