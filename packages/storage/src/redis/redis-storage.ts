import { GenericStorage, type CommonStorageOptions } from '../generic-storage.js';
import {
  connectWithin,
  createBlockingClient,
  createRedisClient,
  type RedisClient,
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
}

export interface RedisUrlStorageOptions extends RedisStorageCommon {
  /** `redis://host:port`, `rediss://host:port`; several URLs mean a Redis Cluster. */
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
 * resourceVersion counter, atomic Lua writes, an event log stream for watches. Resolves once
 * connected, or after `startupTimeoutMs` without a connection: the store then answers
 * Unreachable until Redis comes up, and recovers by itself.
 */
export async function createRedisStorage(opts: RedisStorageOptions): Promise<Storage> {
  const keys = keyspace(opts.prefix ?? '/registry');
  const commandTimeoutMs = opts.commandTimeoutMs ?? 5_000;
  const owned: RedisClient[] = [];
  let client: RedisClient;
  if ('client' in opts) {
    client = opts.client;
  } else {
    client = createRedisClient({
      urls: opts.urls,
      tls: opts.tls,
      connectTimeoutMs: opts.connectTimeoutMs,
      commandTimeoutMs,
      dial: opts.dial,
    });
    // Without a listener, ioredis reports every failed reconnect as an unhandled 'error' event;
    // failures reach callers as Unreachable errors instead.
    client.on('error', () => undefined);
    owned.push(client);
  }
  const blockMs = opts.watchBlockMs ?? 1_000;
  await connectWithin(
    client,
    opts.startupTimeoutMs ?? ('connectTimeoutMs' in opts ? (opts.connectTimeoutMs ?? 2_000) : 2_000),
  );
  const backend = new RedisBackend({
    client,
    owned,
    keys,
    blockMs,
    expirySafetyMarginMs: opts.expirySafetyMarginMs ?? 300_000,
    blocking: () => {
      const conn = createBlockingClient(client, blockMs, commandTimeoutMs);
      conn.on('error', () => undefined);
      return conn;
    },
  });
  return new GenericStorage(backend, opts);
}
