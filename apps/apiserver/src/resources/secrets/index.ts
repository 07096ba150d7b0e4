import { secretView } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../../endpoints/dispatch.js';
import type { ScopeDefaults } from '../../server/server.js';
import { keyRoots } from '../../server/token-getter.js';
import { installStored, type ServedView } from '../stored.js';

/**
 * Secrets (core v1, namespaced), under the key root token authentication reads service account
 * token and bootstrap token Secrets from.
 */
export function installSecrets(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installStored(dispatcher, storage, defaults, { view: secretView, keyRoot: keyRoots.secrets }).served,
  ];
}
