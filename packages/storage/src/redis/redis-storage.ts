import { Cluster } from 'ioredis';
import { GenericStorage, type CommonStorageOptions } from '../generic-storage.js';
import { ShardedStorage } from '../sharded-storage.js';
import {
  connectWithin,
  createBlockingClient,
  createRedisClient,
  reportsClusterMode,
  type RedisClient,
  type RedisConnectionOptions,
  type RedisTlsFiles,
} from './connection.js';
import type { StoreDialer } from './egress-connector.js';
import { keyspace } from './keyspace.js';
import { RedisBackend } from './redis-backend.js';
import type { Storage } from '../storage.js';

interface RedisStorageCommon extends CommonStorageOptions {
  /** Prefixes every key (`--store-prefix`). @default '/registry' */
  readonly prefix?: string;
  /**
   * Redis deletes an expiring object by itself (PEXPIREAT) this long after its logical expiry,
   * a safety net for when no API server reaps; normally the reaper deletes it first and emits
   * DELETED. @default 300000
   */
  readonly expirySafetyMarginMs?: number;
  /** How long the watch reader's XREAD blocks before it polls again. @default 1000 */
  readonly watchBlockMs?: number;
  /** How long the factory waits for the first connection. @default connectTimeoutMs or 2000 */
  readonly startupTimeoutMs?: number;
  /** @default 5000 */
  readonly commandTimeoutMs?: number;
  /**
   * One hash tag, resourceVersion sequence and event log per key root (`{/registry/pods}`)
   * instead of one for the whole store (`{/registry}`), so a Redis Cluster spreads resources
   * over its masters. @default true on a Redis Cluster, false on one Redis
   */
  readonly shardByResource?: boolean;
  /** Told once connected whether the store is a Redis Cluster and whether it is sharded. */
  readonly onTopology?: (topology: RedisTopology) => void;
}

export interface RedisTopology {
  readonly cluster: boolean;
  readonly shardByResource: boolean;
}

export interface RedisUrlStorageOptions extends RedisStorageCommon {
  /**
   * `redis://host:port`, `rediss://host:port`. Several URLs mean a Redis Cluster; so does one URL
   * of a server that reports `cluster_enabled:1` when the store connects.
   */
  readonly urls: readonly string[];
  readonly tls?: RedisTlsFiles;
  /** @default 2000 */
  readonly connectTimeoutMs?: number;
  /** Reach Redis through this (the `etcd` egress proxy's tunnel) instead of directly. */
  readonly dial?: StoreDialer | undefined;
}

export interface RedisClientStorageOptions extends RedisStorageCommon {
  /**
   * A client the caller created and will close; the store only closes what it creates (its
   * watch connection). For fail-fast behaviour configure it like `createRedisClient` does.
   */
  readonly client: RedisClient;
}

export type RedisStorageOptions = RedisUrlStorageOptions | RedisClientStorageOptions;

/**
 * A store in Redis, shared by every API server pointing at the same Redis and prefix: one
 * resourceVersion counter, atomic Lua writes, an event log stream for watches. On a Redis
 * Cluster (or with `shardByResource`), one such store per key root, sharing the connection.
 * Resolves once connected, or after `startupTimeoutMs` without a connection: the store then
 * answers Unreachable until Redis comes up, and recovers by itself.
 */
export async function createRedisStorage(opts: RedisStorageOptions): Promise<Storage> {
  const prefix = opts.prefix ?? '/registry';
  keyspace(prefix); // refuses a prefix with braces before connecting
  const commandTimeoutMs = opts.commandTimeoutMs ?? 5_000;
  const startupMs =
    opts.startupTimeoutMs ?? ('connectTimeoutMs' in opts ? (opts.connectTimeoutMs ?? 2_000) : 2_000);
  const owned: RedisClient[] = [];
  let client: RedisClient;
  if ('client' in opts) {
    client = opts.client;
    await connectWithin(client, startupMs);
  } else {
    client = await connectUrls(
      {
        urls: opts.urls,
        tls: opts.tls,
        connectTimeoutMs: opts.connectTimeoutMs,
        commandTimeoutMs,
        dial: opts.dial,
      },
      startupMs,
    );
    owned.push(client);
  }
  const cluster = client instanceof Cluster;
  const shardByResource = opts.shardByResource ?? cluster;
  opts.onTopology?.({ cluster, shardByResource });
  const blockMs = opts.watchBlockMs ?? 1_000;
  const open = (storePrefix: string, closes: readonly RedisClient[]): Storage =>
    new GenericStorage(
      new RedisBackend({
        client,
        owned: closes,
        keys: keyspace(storePrefix),
        blockMs,
        expirySafetyMarginMs: opts.expirySafetyMarginMs ?? 300_000,
        blocking: () => {
          const conn = createBlockingClient(client, blockMs, commandTimeoutMs);
          conn.on('error', () => undefined);
          return conn;
        },
      }),
      opts,
    );
  if (!shardByResource) return open(prefix, owned);
  return new ShardedStorage(
    (root) => open(`${prefix}${root}`, []),
    async () => {
      await Promise.all(owned.map((c) => c.quit().catch(() => c.disconnect())));
    },
  );
}

/**
 * Connects to the URLs: several make a Cluster client; one whose server turns out to run in
 * cluster mode is reopened as a Cluster client with that server as its seed.
 */
async function connectUrls(conn: RedisConnectionOptions, startupMs: number): Promise<RedisClient> {
  const open = (cluster: boolean): RedisClient => {
    const c = createRedisClient({ ...conn, cluster });
    // Without a listener, ioredis reports every failed reconnect as an unhandled 'error' event;
    // failures reach callers as Unreachable errors instead.
    c.on('error', () => undefined);
    return c;
  };
  const client = open(conn.urls.length > 1);
  const connected = await connectWithin(client, startupMs);
  if (!connected || client instanceof Cluster || (await reportsClusterMode(client)) !== true) return client;
  client.disconnect();
  const seeded = open(true);
  await connectWithin(seeded, startupMs);
  return seeded;
}
