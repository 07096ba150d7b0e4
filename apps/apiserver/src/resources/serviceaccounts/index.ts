import { serviceAccountView, tokenSubresource } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import { scoped, type ResourceDispatcher } from '../../endpoints/dispatch.js';
import { NO_TABLES } from '../../endpoints/media-options.js';
import type { ScopeDefaults } from '../../server/server.js';
import { keyRoots } from '../../server/token-getter.js';
import { installStored, type ServedView } from '../stored.js';
import { tokenRequestHandler, type TokenRequestSettings } from './token.js';

export type { TokenRequestSettings } from './token.js';

/**
 * ServiceAccounts (core v1, namespaced, short name `sa`) and, when the server has a signing key
 * (`tokenRequests` given), their `token` subresource: TokenRequest. Without a signing key the
 * subresource is not there at all, as upstream.
 */
export function installServiceAccounts(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
  tokenRequests: TokenRequestSettings | undefined,
): ServedView[] {
  const { scope, served } = installStored(dispatcher, storage, defaults, {
    view: serviceAccountView,
    keyRoot: keyRoots.serviceAccounts,
  });
  if (!tokenRequests) return [served];
  dispatcher.addSubresource('token', scope, {
    // A TokenRequest has no table convertor upstream: `as=Table` alone is a 406.
    create: scoped(scope, tokenRequestHandler(storage, tokenRequests), NO_TABLES),
  });
  return [{ ...served, subresources: [tokenSubresource] }];
}
