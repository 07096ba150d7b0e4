import { podDisruptionBudgetStatusViews, podDisruptionBudgetViews } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../../endpoints/dispatch.js';
import { GenericStore } from '../../registry/generic-store.js';
import type { ResourceView } from '../../registry/resource-view.js';
import type { ScopeDefaults } from '../../server/server.js';
import { statusSubresource, type ServedView } from '../stored.js';

/**
 * policy PodDisruptionBudgets (`pdb`, with /status) at v1 and v1beta1: views of one stored
 * object under one key root, so a budget written at either version is read at both. No
 * disruption controller computes their status (docs/resources.md).
 */
export function installPolicy(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  const all = podDisruptionBudgetViews as unknown as readonly ResourceView[];
  const keyRoot = '/poddisruptionbudgets';
  const { admission } = defaults;
  const garbageCollection = { enabled: defaults.garbageCollector };
  return all.map((view, i) => {
    dispatcher.add({
      ...defaults,
      store: new GenericStore({ storage, view, views: all, keyRoot, admission, garbageCollection }),
      view,
    });
    const statusView = podDisruptionBudgetStatusViews[i] as unknown as ResourceView;
    const statusStore = new GenericStore({
      storage,
      view: statusView,
      views: all,
      keyRoot,
      admission,
      garbageCollection,
      subresource: 'status',
    });
    dispatcher.addSubresource('status', { ...defaults, store: statusStore, view: statusView });
    return { ...view, subresources: [statusSubresource(view.kind)] };
  });
}
