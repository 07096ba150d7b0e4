import { StorageError } from './errors.js';
import { keyRoot } from './keys.js';
import { KeyRoutedStorage } from './key-routed-storage.js';
import type { Storage } from './storage.js';

/**
 * One store per key root (`/pods`, `/events`, ...), made on first use: how Keel spreads over a
 * Redis Cluster. Each root's store has its own hash tag, so its keys live in one slot (its Lua
 * scripts stay atomic) while different resources land on different masters; each keeps its own
 * resourceVersion sequence, event log and compaction, as each etcd cluster does upstream with
 * --store-servers-overrides. Every guarantee of the Storage contract holds per root: no call
 * spans two roots (lists, watches and continue tokens are all under one prefix).
 */
export class ShardedStorage extends KeyRoutedStorage {
  private readonly shards = new Map<string, Storage>();
  private closed = false;

  constructor(
    /** Opens the store of a root; '' is the root of keys without one (a list of `/`). */
    private readonly open: (root: string) => Storage,
    /** Closes what the shards share (the connection), after every shard closed. */
    private readonly closeShared: () => Promise<void>,
  ) {
    super();
  }

  protected storeFor(key: string): Storage {
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

  /** Every shard reports the whole cluster's memory, so one answers for all. */
  dbSize(): Promise<number> {
    return this.storeFor('').dbSize();
  }
  healthCheck(timeoutMs: number): Promise<void> {
    return this.storeFor('').healthCheck(timeoutMs);
  }
  readinessCheck(timeoutMs: number): Promise<void> {
    return this.storeFor('').readinessCheck(timeoutMs);
  }
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.shards.values()].map((s) => s.close()));
    await this.closeShared();
  }
}
