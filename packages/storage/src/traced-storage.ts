import { inSpan } from '@keel/tracing';
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
 * A store whose calls are spans under the request that made them, named as upstream's etcd3
 * store names its own (`Create etcd3` and so on, with `store3` for the neutral backend name) and
 * carrying the key. Applied only when tracing is on, so an untraced server pays nothing. Watches
 * are long-lived streams, not calls, and get no span.
 */
class TracedStorage implements Storage {
  constructor(private readonly inner: Storage) {}

  create<T extends object = StoredObject>(key: string, obj: T, opts?: CreateOptions): Promise<T> {
    return inSpan('Create store3', { key }, () => this.inner.create(key, obj, opts));
  }
  get<T extends object = StoredObject>(
    key: string,
    opts?: GetOptions & { ignoreNotFound?: false },
  ): Promise<T>;
  get<T extends object = StoredObject>(key: string, opts: GetOptions): Promise<T | undefined>;
  get<T extends object = StoredObject>(key: string, opts: GetOptions = {}): Promise<T | undefined> {
    return inSpan('Get store3', { key }, () => this.inner.get<T>(key, opts));
  }
  list<T extends object = StoredObject>(prefix: string, opts?: ListOptions<T>): Promise<ListResult<T>> {
    return inSpan('List store3', { key: prefix }, () => this.inner.list(prefix, opts));
  }
  guaranteedUpdate<T extends object = StoredObject>(
    key: string,
    tryUpdate: (current: T | undefined) => T | Promise<T>,
    opts?: UpdateOptions<T>,
  ): Promise<T> {
    return inSpan('GuaranteedUpdate store3', { key }, () =>
      this.inner.guaranteedUpdate(key, tryUpdate, opts),
    );
  }
  delete<T extends object = StoredObject>(key: string, opts?: DeleteOptions<T>): Promise<T> {
    return inSpan('Delete store3', { key }, () => this.inner.delete(key, opts));
  }
  watch<T extends object = StoredObject>(
    prefix: string,
    opts: WatchOptions<T>,
  ): AsyncIterable<WatchEvent<T>> {
    return this.inner.watch(prefix, opts);
  }
  currentResourceVersion(prefix?: string): Promise<string> {
    return this.inner.currentResourceVersion(prefix);
  }
  dbSize(): Promise<number> {
    return this.inner.dbSize();
  }
  healthCheck(timeoutMs: number): Promise<void> {
    return this.inner.healthCheck(timeoutMs);
  }
  readinessCheck(timeoutMs: number): Promise<void> {
    return this.inner.readinessCheck(timeoutMs);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

export function withStoreSpans(storage: Storage): Storage {
  return new TracedStorage(storage);
}
