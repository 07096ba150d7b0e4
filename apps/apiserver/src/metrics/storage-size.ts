import type { Storage, StoreBackend } from '@keel/storage';
import type { ApiServerMetrics } from './apiserver-metrics.js';
import { pollEvery } from './poll.js';

/**
 * The size metric's endpoint label: the store's servers without credentials, or `memory` for the
 * embedded store.
 */
export function storeEndpoint(backend: StoreBackend): string {
  if (backend.kind === 'memory') return 'memory';
  return backend.urls
    .map((u) => {
      const url = new URL(u);
      // The database number tells apart overrides that share a server.
      return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
    })
    .join(',');
}

/**
 * --store-db-metric-poll-interval: every interval, asks the store how big it is
 * (apiserver_storage_db_total_size_in_bytes, etcd's db size in kube). A failed poll leaves the
 * last value, as kube's does; 0 turns the poll off.
 */
export async function pollStorageSize(
  stores: readonly { readonly endpoint: string; readonly storage: Storage }[],
  metrics: ApiServerMetrics,
  intervalMs: number,
  signal: AbortSignal,
): Promise<void> {
  await pollEvery(intervalMs, signal, async () => {
    for (const { endpoint, storage } of stores) {
      try {
        metrics.storageDbSize.set({ endpoint }, await storage.dbSize());
      } catch {
        // The store's health checks report an unreachable store; the metric keeps its last value.
      }
    }
  });
}
