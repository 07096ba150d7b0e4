import { configMapView } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../endpoints/dispatch.js';
import type { ScopeDefaults } from '../server/server.js';
import { installStored, type ServedView } from './stored.js';

/**
 * ConfigMaps (core v1, namespaced), under the key root the bootstrap step writes
 * `platform-system/extension-apiserver-authentication` to.
 */
export function installConfigMaps(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installStored(dispatcher, storage, defaults, { view: configMapView, keyRoot: '/configmaps' }).served,
  ];
}
