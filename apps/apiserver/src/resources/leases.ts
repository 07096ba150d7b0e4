import { leaseView } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../endpoints/dispatch.js';
import type { ScopeDefaults } from '../server/server.js';
import { installStored, type ServedView } from './stored.js';

/**
 * coordination.k8s.io/v1 Leases (namespaced), what leader election locks on: an update must
 * carry the resourceVersion it read (a stale one is a 409), a second create of one name is
 * AlreadyExists.
 */
export function installLeases(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [installStored(dispatcher, storage, defaults, { view: leaseView, keyRoot: '/leases' }).served];
}
