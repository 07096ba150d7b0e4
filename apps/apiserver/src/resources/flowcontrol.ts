import type { Admission } from '@keel/admission';
import { flowSchemaViews, priorityLevelViews, type FlowSchema } from '@keel/flowcontrol';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../endpoints/dispatch.js';
import { GenericStore } from '../registry/generic-store.js';
import type { InternalObject, ResourceView } from '../registry/resource-view.js';
import type { ScopeDefaults } from '../server/server.js';
import { FLOW_SCHEMAS_KEY, PRIORITY_LEVELS_KEY } from '../server/flowcontrol-config.js';
import { statusSubresource, type ServedView } from './stored.js';
import { statusSubresourceView, type StatusHooks } from '@keel/resource';

/**
 * flowcontrol.apiserver.k8s.io FlowSchemas and PriorityLevelConfigurations (cluster-scoped, with
 * /status), each served at v1, v1beta3, v1beta2 and v1beta1: views of one stored object under one
 * key root, so an object written through any version is read through all. The bootstrap hook
 * creates the mandatory and suggested objects; the priority and fairness filter follows them.
 */
export function installFlowControl(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  return [
    ...installVersions(dispatcher, storage, defaults, flowSchemaViews, FLOW_SCHEMAS_KEY),
    ...installVersions(dispatcher, storage, defaults, priorityLevelViews, PRIORITY_LEVELS_KEY),
  ];
}

function installVersions<I extends InternalObject>(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
  views: readonly (ResourceView<I> & StatusHooks<I>)[],
  keyRoot: string,
): ServedView[] {
  const all = views as readonly ResourceView[];
  return views.map((v) => {
    const view = v as unknown as ResourceView;
    const admission = defaults.admission;
    dispatcher.add({
      ...defaults,
      store: new GenericStore({ storage, view, views: all, keyRoot, admission }),
      view,
    });
    const statusView = statusSubresourceView(v) as unknown as ResourceView;
    const statusStore = new GenericStore({
      storage,
      view: statusView,
      views: all,
      keyRoot,
      admission,
      subresource: 'status',
    });
    dispatcher.addSubresource('status', { ...defaults, store: statusStore, view: statusView });
    return { ...view, subresources: [statusSubresource(view.kind)] };
  });
}

/**
 * The v1 FlowSchema status subresource's store, as the config consumer writes the Dangling
 * condition through it (upstream's loopback client applies flowschemas/status): admission, the
 * status strategy (only status changes) and managedFields are those of any status write.
 */
export function flowSchemaStatusStore(storage: Storage, admission: Admission): GenericStore<FlowSchema> {
  const all = flowSchemaViews as unknown as readonly ResourceView[];
  const v1 = flowSchemaViews.find((v) => v.version === 'v1');
  if (!v1) throw new Error('flowcontrol.apiserver.k8s.io/v1 FlowSchema view missing');
  const view = statusSubresourceView(v1) as unknown as ResourceView;
  const store = new GenericStore({
    storage,
    view,
    views: all,
    keyRoot: FLOW_SCHEMAS_KEY,
    admission,
    subresource: 'status',
  });
  // The stored form is v1's wire form (types.ts): the store's objects are FlowSchemas.
  return store as unknown as GenericStore<FlowSchema>;
}
