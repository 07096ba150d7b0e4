import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  Storage,
  StoredObject,
  UpdateOptions,
  WatchEvent,
  WatchOptions,
} from './storage.js';
import { keyRoot } from './keys.js';

/**
 * --store-servers-overrides: some resources live in other stores than the rest. Every call goes
 * to the store of its key's root; each store keeps its own resourceVersion sequence, as each etcd
 * cluster does upstream, which is why currentResourceVersion takes the prefix it is asked for.
 */
export class RoutingStorage implements Storage {
  constructor(
    private readonly fallback: Storage,
    /** Key root (`/events`) → the store that holds it. */
    private readonly routes: ReadonlyMap<string, Storage>,
  ) {}

  private route(key: string): Storage {
    return this.routes.get(keyRoot(key)) ?? this.fallback;
  }

  private all(): Storage[] {
    return [this.fallback, ...new Set(this.routes.values())];
  }

  create<T extends object = StoredObject>(key: string, obj: T, opts?: CreateOptions): Promise<T> {
    return this.route(key).create(key, obj, opts);
  }
  get<T extends object = StoredObject>(
    key: string,
    opts?: GetOptions & { ignoreNotFound?: false },
  ): Promise<T>;
  get<T extends object = StoredObject>(key: string, opts: GetOptions): Promise<T | undefined>;
  get<T extends object = StoredObject>(key: string, opts: GetOptions = {}): Promise<T | undefined> {
    return this.route(key).get<T>(key, opts);
  }
  list<T extends object = StoredObject>(prefix: string, opts?: ListOptions<T>): Promise<ListResult<T>> {
    return this.route(prefix).list(prefix, opts);
  }
  guaranteedUpdate<T extends object = StoredObject>(
    key: string,
    tryUpdate: (current: T | undefined) => T | Promise<T>,
    opts?: UpdateOptions<T>,
  ): Promise<T> {
    return this.route(key).guaranteedUpdate(key, tryUpdate, opts);
  }
  delete<T extends object = StoredObject>(key: string, opts?: DeleteOptions<T>): Promise<T> {
    return this.route(key).delete(key, opts);
  }
  watch<T extends object = StoredObject>(
    prefix: string,
    opts: WatchOptions<T>,
  ): AsyncIterable<WatchEvent<T>> {
    return this.route(prefix).watch(prefix, opts);
  }
  currentResourceVersion(prefix = ''): Promise<string> {
    return this.route(prefix).currentResourceVersion(prefix);
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
