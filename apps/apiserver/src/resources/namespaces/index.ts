import { namespaceFinalizeView, namespaceStatusView, namespaceView, type Namespace } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../../endpoints/dispatch.js';
import { GenericStore } from '../../registry/generic-store.js';
import type { ResourceView } from '../../registry/resource-view.js';
import type { ScopeDefaults } from '../../server/server.js';
import { statusSubresource, type ServedView } from '../stored.js';
import { heldBySpecFinalizers, NamespaceStore } from './store.js';

const KEY_ROOT = '/namespaces';

export interface InstalledNamespaces {
  readonly served: ServedView[];
  /** Creates and deletes namespaces (NamespaceAutoProvision creates through it). */
  readonly namespaces: NamespaceStore;
  /** namespaces/finalize: the namespace controller's last step goes through it. */
  readonly finalize: GenericStore<Namespace>;
}

/**
 * Namespaces (core v1, cluster-scoped) with namespaces/status and namespaces/finalize, under the
 * key root the bootstrap step writes the system namespaces to. Clients look namespaces up too:
 * kubectl checks the namespace after a NotFound. A deleted namespace stays while spec.finalizers
 * lists anything, whichever of the three paths writes it.
 */
export function installNamespaces(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): InstalledNamespaces {
  const { admission } = defaults;
  const common = {
    storage,
    keyRoot: KEY_ROOT,
    admission,
    holdsDeletion: heldBySpecFinalizers,
    garbageCollection: { enabled: defaults.garbageCollector },
  };
  const namespaces = new NamespaceStore({ ...common, view: namespaceView, views: [namespaceView] });
  dispatcher.add({ ...defaults, store: namespaces, view: namespaceView });
  const subresource = (name: 'status' | 'finalize', view: ResourceView<Namespace>) => {
    const store = new GenericStore<Namespace>({ ...common, view, views: [view], subresource: name });
    dispatcher.addSubresource(name, { ...defaults, store, view });
    return store;
  };
  subresource('status', namespaceStatusView);
  const finalize = subresource('finalize', namespaceFinalizeView);
  const finalizeEntry = { name: 'finalize', kind: 'Namespace', verbs: ['update'] };
  const served: ServedView = {
    ...namespaceView,
    subresources: [finalizeEntry, statusSubresource('Namespace')],
  };
  return { served: [served], namespaces, finalize };
}
