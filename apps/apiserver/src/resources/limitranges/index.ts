import { limitRangeView } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../../endpoints/dispatch.js';
import type { ScopeDefaults } from '../../server/server.js';
import { installStored, type ServedView } from '../stored.js';

/** LimitRanges (core v1, namespaced, short name `limits`), which the LimitRanger plugin reads. */
export function installLimitRanges(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installStored(dispatcher, storage, defaults, { view: limitRangeView, keyRoot: '/limitranges' }).served,
  ];
}
