import type { Storage } from '@keel/storage';
import type { ApiServerMetrics } from './apiserver-metrics.js';
import { pollEvery } from './poll.js';

/** One served resource and where its objects are kept. */
export interface CountedResource {
  /** The metric's label: `<resource>` or `<resource>.<group>`, as kube's. */
  readonly label: string;
  readonly keyRoot: string;
}

/**
 * --store-count-metric-poll-period: every period, counts each resource's objects (a one-item list
 * reports how many remain) into apiserver_storage_objects, -1 when the store cannot tell. A
 * period of 0 turns the poll off, as upstream.
 */
export async function pollStorageObjects(
  storage: Storage,
  metrics: ApiServerMetrics,
  resources: () => readonly CountedResource[],
  periodMs: number,
  signal: AbortSignal,
): Promise<void> {
  await pollEvery(periodMs, signal, async () => {
    for (const r of resources()) {
      try {
        const page = await storage.list(r.keyRoot, { limit: 1 });
        const count = page.items.length + (page.remainingItemCount ?? 0);
        metrics.storageObjects.set({ resource: r.label }, count);
        metrics.objectCounts.set(r.label, count);
      } catch {
        metrics.storageObjects.set({ resource: r.label }, -1);
        metrics.objectCounts.set(r.label, -1);
      }
    }
  });
}

/** The stored resources among the served views (those that can be listed), each counted once. */
export function storedResources(
  views: readonly { readonly group: string; readonly resource: string; readonly verbs: readonly string[] }[],
): CountedResource[] {
  const out = new Map<string, CountedResource>();
  for (const v of views) {
    if (!v.verbs.includes('list') || v.resource.includes('/')) continue;
    const label = v.group === '' ? v.resource : `${v.resource}.${v.group}`;
    out.set(label, { label, keyRoot: `/${v.resource}` });
  }
  return [...out.values()];
}
