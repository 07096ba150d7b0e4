import { KeyRoutedStorage } from './key-routed-storage.js';
import type { Storage } from './storage.js';
import { keyRoot } from './keys.js';

/**
 * --store-servers-overrides: some resources live in other stores than the rest. Every call goes
 * to the store of its key's root; each store keeps its own resourceVersion sequence, as each etcd
 * cluster does upstream, which is why currentResourceVersion takes the prefix it is asked for.
 */
export class RoutingStorage extends KeyRoutedStorage {
  constructor(
    private readonly fallback: Storage,
    /** Key root (`/events`) → the store that holds it. */
    private readonly routes: ReadonlyMap<string, Storage>,
  ) {
    super();
  }

  protected storeFor(key: string): Storage {
    return this.routes.get(keyRoot(key)) ?? this.fallback;
  }

  private all(): Storage[] {
    return [this.fallback, ...new Set(this.routes.values())];
  }

  /** The stores' sizes summed; the size metric asks each store itself (see stores()). */
  async dbSize(): Promise<number> {
    const sizes = await Promise.all(this.all().map((s) => s.dbSize()));
    return sizes.reduce((a, b) => a + b, 0);
  }
  async healthCheck(timeoutMs: number): Promise<void> {
    await Promise.all(this.all().map((s) => s.healthCheck(timeoutMs)));
  }
  async readinessCheck(timeoutMs: number): Promise<void> {
    await Promise.all(this.all().map((s) => s.readinessCheck(timeoutMs)));
  }
  async close(): Promise<void> {
    await Promise.all(this.all().map((s) => s.close()));
  }
}
