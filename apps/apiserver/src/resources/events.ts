import { coreV1EventView, eventsV1View } from '@keel/events';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../endpoints/dispatch.js';
import { GenericStore } from '../registry/generic-store.js';
import type { ResourceView } from '../registry/resource-view.js';
import type { ScopeDefaults } from '../server/server.js';

/**
 * Events, served as events.k8s.io/v1 and as core v1: two views of one stored object under one
 * key root, so an event written through either API is read through both. Every write lives
 * --event-ttl, then expires.
 */
export function installEvents(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
  ttlSeconds: number,
): ResourceView[] {
  const views = [coreV1EventView, eventsV1View];
  for (const view of views) {
    const store = new GenericStore({
      storage,
      view,
      views,
      keyRoot: '/events',
      ttlSeconds,
      admission: defaults.admission,
      // Events never take the collector's finalizers (their strategy's policy is Unsupported).
      garbageCollection: { enabled: defaults.garbageCollector, defaultPolicy: 'Unsupported' },
    });
    dispatcher.add({ ...defaults, store, view });
  }
  return views;
}
