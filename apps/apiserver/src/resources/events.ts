import { coreV1EventView, eventsV1View } from '@keel/events';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../endpoints/dispatch.js';
import { GenericStore } from '../registry/generic-store.js';
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
): string[] {
  for (const view of [eventsV1View, coreV1EventView]) {
    const store = new GenericStore({ storage, view, keyRoot: '/events', ttlSeconds });
    dispatcher.add({ ...defaults, store, view });
  }
  return ['v1', 'events.k8s.io/v1'];
}
