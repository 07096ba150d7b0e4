import { priorityClassView } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../endpoints/dispatch.js';
import type { ScopeDefaults } from '../server/server.js';
import { installStored, type ServedView } from './stored.js';

/**
 * scheduling.k8s.io/v1 PriorityClasses (cluster-scoped, short name `pc`). The two system classes
 * are created by the `scheduling/bootstrap-system-priority-classes` post-start hook; the Priority
 * admission plugin keeps a second global default out.
 */
export function installPriorityClasses(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    installStored(dispatcher, storage, defaults, { view: priorityClassView, keyRoot: '/priorityclasses' })
      .served,
  ];
}
