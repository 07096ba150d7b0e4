import { resourceQuotaStatusView, resourceQuotaView } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../../endpoints/dispatch.js';
import type { ScopeDefaults } from '../../server/server.js';
import { installStored, type ServedView } from '../stored.js';

/**
 * ResourceQuotas (core v1, namespaced, short name `quota`) and resourcequotas/status, which the
 * ResourceQuota plugin charges and the in-server quota controller recalculates.
 */
export function installResourceQuotas(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installStored(dispatcher, storage, defaults, {
      view: resourceQuotaView,
      statusView: resourceQuotaStatusView,
      keyRoot: '/resourcequotas',
    }).served,
  ];
}
