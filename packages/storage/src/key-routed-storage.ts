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

/**
 * A store made of stores, each call going whole to the one that holds its key (or prefix): what
 * store routing (--store-servers-overrides) and Redis Cluster sharding have in common. No call
 * spans two stores, so every guarantee of the Storage contract holds per store. Subclasses pick
 * the store and say what the store-wide calls (size, checks, close) mean.
 */
export abstract class KeyRoutedStorage implements Storage {
  protected abstract storeFor(key: string): Storage;

  create<T extends object = StoredObject>(key: string, obj: T, opts?: CreateOptions): Promise<T> {
    return this.storeFor(key).create(key, obj, opts);
  }
  get<T extends object = StoredObject>(
    key: string,
    opts?: GetOptions & { ignoreNotFound?: false },
  ): Promise<T>;
  get<T extends object = StoredObject>(key: string, opts: GetOptions): Promise<T | undefined>;
  get<T extends object = StoredObject>(key: string, opts: GetOptions = {}): Promise<T | undefined> {
    return this.storeFor(key).get<T>(key, opts);
  }
  list<T extends object = StoredObject>(prefix: string, opts?: ListOptions<T>): Promise<ListResult<T>> {
    return this.storeFor(prefix).list(prefix, opts);
  }
  guaranteedUpdate<T extends object = StoredObject>(
    key: string,
    tryUpdate: (current: T | undefined) => T | Promise<T>,
    opts?: UpdateOptions<T>,
  ): Promise<T> {
    return this.storeFor(key).guaranteedUpdate(key, tryUpdate, opts);
  }
  delete<T extends object = StoredObject>(key: string, opts?: DeleteOptions<T>): Promise<T> {
    return this.storeFor(key).delete(key, opts);
  }
  watch<T extends object = StoredObject>(
    prefix: string,
    opts: WatchOptions<T>,
  ): AsyncIterable<WatchEvent<T>> {
    return this.storeFor(prefix).watch(prefix, opts);
  }
  /** Each store keeps its own resourceVersion sequence, so the prefix picks whose. */
  currentResourceVersion(prefix = ''): Promise<string> {
    return this.storeFor(prefix).currentResourceVersion(prefix);
  }

  abstract dbSize(): Promise<number>;
  abstract healthCheck(timeoutMs: number): Promise<void>;
  abstract readinessCheck(timeoutMs: number): Promise<void>;
  abstract close(): Promise<void>;
}
