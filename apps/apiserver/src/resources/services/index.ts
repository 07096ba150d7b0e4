import { serviceStatusView, serviceView, type Service } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../../endpoints/dispatch.js';
import { GenericStore } from '../../registry/generic-store.js';
import type { ScopeDefaults } from '../../server/server.js';
import { statusSubresource, type ServedView } from '../stored.js';
import { ServiceAllocator } from './allocations.js';
import { serviceRanges } from './ranges.js';

export interface ServiceNetwork {
  readonly serviceClusterIPRanges: readonly string[];
  readonly serviceNodePortRange: { base: number; size: number };
}

/**
 * Services (core v1, namespaced, short name `svc`) and services/status. Writes of the resource
 * allocate cluster IPs from --service-cluster-ip-range and node ports from
 * --service-node-port-range (ranges kept in the store, shared by every server on it); the status
 * subresource never touches them.
 */
export function installServices(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
  network: ServiceNetwork,
): ServedView[] {
  const hooks = new ServiceAllocator(serviceRanges(storage, network));
  const common = { storage, keyRoot: '/services', admission: defaults.admission };
  const store = new GenericStore<Service>({ ...common, view: serviceView, views: [serviceView], hooks });
  dispatcher.add({ ...defaults, store, view: serviceView });
  const statusStore = new GenericStore<Service>({
    ...common,
    view: serviceStatusView,
    views: [serviceStatusView],
    subresource: 'status',
  });
  dispatcher.addSubresource('status', { ...defaults, store: statusStore, view: serviceStatusView });
  return [{ ...serviceView, subresources: [statusSubresource('Service')] }];
}
