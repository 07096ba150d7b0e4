import type { Admission } from '@keel/admission';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../endpoints/dispatch.js';
import type { DiscoverySubresource } from '../endpoints/discovery/groups.js';
import type { RequestScope } from '../endpoints/handlers/scope.js';
import { GenericStore } from '../registry/generic-store.js';
import type { InternalObject, ResourceView } from '../registry/resource-view.js';
import type { ScopeDefaults } from '../server/server.js';

/** A served view as discovery lists it: the resource, then its subresources. */
export type ServedView = ResourceView & {
  readonly subresources?: readonly DiscoverySubresource[];
};

/** Discovery's entry for a `<resource>/status` subresource. */
export function statusSubresource(kind: string): DiscoverySubresource {
  return { name: 'status', kind, verbs: ['get', 'patch', 'update'] };
}

export interface StoredResource {
  readonly store: GenericStore<InternalObject>;
  readonly scope: RequestScope;
  readonly served: ServedView;
}

/**
 * Serves one stored resource through the generic store and handlers, and its `status`
 * subresource (another view of the same objects under the same key root) when given one.
 */
export function installStored(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
  opts: {
    view: ResourceView;
    keyRoot: string;
    statusView?: ResourceView;
    /** Instead of the configured chain (a resource that adds checks of its own to it). */
    admission?: Admission;
  },
): StoredResource {
  const { view, keyRoot, statusView } = opts;
  const admission = opts.admission ?? defaults.admission;
  const garbageCollection = { enabled: defaults.garbageCollector };
  const store = new GenericStore({ storage, view, views: [view], keyRoot, admission, garbageCollection });
  const scope: RequestScope = { ...defaults, store, view };
  dispatcher.add(scope);
  if (statusView) {
    const statusStore = new GenericStore({
      storage,
      view: statusView,
      views: [statusView],
      keyRoot,
      admission,
      garbageCollection,
      subresource: 'status',
    });
    dispatcher.addSubresource('status', { ...defaults, store: statusStore, view: statusView });
  }
  const served: ServedView = statusView ? { ...view, subresources: [statusSubresource(view.kind)] } : view;
  return { store, scope, served };
}
