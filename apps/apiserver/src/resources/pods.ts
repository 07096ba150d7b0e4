import { badRequest, notFound } from '@keel/apimachinery';
import { applyBinding, podStatusView, podViewWith, type Pod, type PodValidationOptions } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import { scoped, type ResourceDispatcher, type ServedResource } from '../endpoints/dispatch.js';
import { bindingHandler, type BindPod } from '../endpoints/handlers/binding.js';
import { NO_TABLES } from '../endpoints/media-options.js';
import type { GenericStore } from '../registry/generic-store.js';
import { interpretStorageError } from '../registry/interpret-storage-error.js';
import type { ScopeDefaults } from '../server/server.js';
import { installStored, statusSubresource } from './stored.js';

const PODS = { group: '', resource: 'pods' };

/**
 * BindingREST's assignment: one guaranteed update of the pod (coreapi's applyBinding refuses a
 * pod that is assigned, being deleted or gated, and checks the Binding's uid/resourceVersion).
 */
export function podBinder(
  storage: Storage,
  store: Pick<GenericStore<Pod>, 'key'>,
  now: () => Date = () => new Date(),
): BindPod {
  return async (namespace, binding, dryRun) => {
    const name = binding.metadata.name ?? '';
    if (name === '') throw badRequest('Name parameter required.');
    try {
      await storage.guaranteedUpdate<Pod>(
        store.key(namespace, name),
        (pod) => {
          if (!pod) throw notFound(PODS, name);
          const next = applyBinding(pod, binding, now());
          delete next.metadata.resourceVersion;
          return next;
        },
        { dryRun },
      );
    } catch (err) {
      // applyBinding's refusals are already the real 409s; storage errors get their usual codes
      // and anything else stays an internal error.
      throw interpretStorageError(err, PODS, name);
    }
  };
}

/** The legacy `bindings` collection: create only, no storage of its own. */
const bindingsResource: ServedResource = {
  group: '',
  version: 'v1',
  resource: 'bindings',
  kind: 'Binding',
  listKind: 'BindingList',
  singular: 'binding',
  namespaced: true,
  verbs: ['create'],
};

/**
 * Pods (core v1, namespaced) with pods/status and pods/binding, and the legacy bindings
 * collection. Decoding defaults the pod (schedulerName `default-scheduler`, ...); the admission
 * chain (ServiceAccount, Priority) fills in the rest before validation.
 * Validation applies the cluster's pod policy (--allow-privileged).
 */
export function installPods(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
  policy: PodValidationOptions,
): ServedResource[] {
  const view = podViewWith(policy);
  const { store, scope, served } = installStored(dispatcher, storage, defaults, {
    view,
    statusView: podStatusView,
    keyRoot: '/pods',
  });
  const bind = podBinder(storage, store);
  // A Binding has no table convertor upstream: `as=Table` alone is a 406 (both paths).
  dispatcher.addSubresource('binding', scope, {
    create: scoped(scope, bindingHandler(bind, 'subresource'), NO_TABLES),
  });
  dispatcher.addRoute({
    group: '',
    version: 'v1',
    resource: 'bindings',
    subresource: '',
    namespaced: true,
    handlers: { create: scoped(scope, bindingHandler(bind, 'legacy'), NO_TABLES) },
  });
  const binding = { name: 'binding', kind: 'Binding', verbs: ['create'] };
  return [{ ...served, subresources: [binding, statusSubresource('Pod')] }, bindingsResource];
}
