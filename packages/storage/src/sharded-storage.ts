import { StorageError } from './errors.js';
import { keyRoot } from './keys.js';
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
 * One store per key root (`/pods`, `/events`, ...), made on first use: how Keel spreads over a
 * Redis Cluster. Each root's store has its own hash tag, so its keys live in one slot (its Lua
 * scripts stay atomic) while different resources land on different masters; each keeps its own
 * resourceVersion sequence, event log and compaction, as each etcd cluster does upstream with
 * --store-servers-overrides. Every guarantee of the Storage contract holds per root: no call
 * spans two roots (lists, watches and continue tokens are all under one prefix).
 */
export class ShardedStorage implements Storage {
  private readonly shards = new Map<string, Storage>();
  private closed = false;

  constructor(
    /** Opens the store of a root; '' is the root of keys without one (a list of `/`). */
    private readonly open: (root: string) => Storage,
    /** Closes what the shards share (the connection), after every shard closed. */
    private readonly closeShared: () => Promise<void>,
  ) {}

  private shard(key: string): Storage {
    if (this.closed) throw new StorageError('Unreachable', 'storage is closed');
    const root = keyRoot(key);
    let s = this.shards.get(root);
    if (!s) {
      s = this.open(root);
      this.shards.set(root, s);
    }
    return s;
  }

  /** The roots that got a store (kept after close, so a test can wipe their keys). */
  roots(): string[] {
    return [...this.shards.keys()];
  }

  create<T extends object = StoredObject>(key: string, obj: T, opts?: CreateOptions): Promise<T> {
    return this.shard(key).create(key, obj, opts);
  }
  get<T extends object = StoredObject>(
    key: string,
    opts?: GetOptions & { ignoreNotFound?: false },
  ): Promise<T>;
  get<T extends object = StoredObject>(key: string, opts: GetOptions): Promise<T | undefined>;
  get<T extends object = StoredObject>(key: string, opts: GetOptions = {}): Promise<T | undefined> {
    return this.shard(key).get<T>(key, opts);
  }
  list<T extends object = StoredObject>(prefix: string, opts?: ListOptions<T>): Promise<ListResult<T>> {
    return this.shard(prefix).list(prefix, opts);
  }
  guaranteedUpdate<T extends object = StoredObject>(
    key: string,
    tryUpdate: (current: T | undefined) => T | Promise<T>,
    opts?: UpdateOptions<T>,
  ): Promise<T> {
    return this.shard(key).guaranteedUpdate(key, tryUpdate, opts);
  }
  delete<T extends object = StoredObject>(key: string, opts?: DeleteOptions<T>): Promise<T> {
    return this.shard(key).delete(key, opts);
  }
  watch<T extends object = StoredObject>(
    prefix: string,
    opts: WatchOptions<T>,
  ): AsyncIterable<WatchEvent<T>> {
    return this.shard(prefix).watch(prefix, opts);
  }
  currentResourceVersion(prefix = ''): Promise<string> {
    return this.shard(prefix).currentResourceVersion(prefix);
  }
  /** Every shard reports the whole cluster's memory, so one answers for all. */
  dbSize(): Promise<number> {
    return this.shard('').dbSize();
  }
  healthCheck(timeoutMs: number): Promise<void> {
    return this.shard('').healthCheck(timeoutMs);
  }
  readinessCheck(timeoutMs: number): Promise<void> {
    return this.shard('').readinessCheck(timeoutMs);
  }
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.shards.values()].map((s) => s.close()));
    await this.closeShared();
  }
}
