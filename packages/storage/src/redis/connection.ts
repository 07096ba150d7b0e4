import { readFileSync } from 'node:fs';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { ConnectionOptions } from 'node:tls';
import { egressConnector, type StoreDialer } from './egress-connector.js';

export type RedisClient = Redis | Cluster;

/** PEM files for `rediss://` (`--store-cafile`, `--store-certfile`, `--store-keyfile`). */
export interface RedisTlsFiles {
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
}

export interface RedisConnectionOptions {
  /** `redis://host:port` or `rediss://host:port`; several URLs mean a Redis Cluster. */
  readonly urls: readonly string[];
  /** A Redis Cluster even with one URL (a seed node; the client learns the others from it). */
  readonly cluster?: boolean;
  readonly tls?: RedisTlsFiles;
  /** @default 2000 */
  readonly connectTimeoutMs?: number;
  /** A command without a reply by then fails with Timeout. @default 5000 */
  readonly commandTimeoutMs?: number;
  /** Reach every node through this (the `etcd` egress proxy) instead of directly. */
  readonly dial?: StoreDialer | undefined;
}

function tlsOptions(files: RedisTlsFiles | undefined, wanted: boolean): ConnectionOptions | undefined {
  if (!wanted && !files?.caFile && !files?.certFile && !files?.keyFile) return undefined;
  const read = (f: string | undefined): Buffer | undefined => (f ? readFileSync(f) : undefined);
  const ca = read(files?.caFile);
  const cert = read(files?.certFile);
  const key = read(files?.keyFile);
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

/**
 * Options that make every command fail fast while Redis is away instead of queueing: no offline
 * queue, no resending of in-flight commands after a reconnect (a resent write could apply twice
 * or report a misleading KeyExists), bounded connect and command times. ioredis keeps
 * reconnecting in the background, so the store recovers by itself.
 */
function failFast(opts: RedisConnectionOptions): RedisOptions {
  return {
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    connectTimeout: opts.connectTimeoutMs ?? 2_000,
    commandTimeout: opts.commandTimeoutMs ?? 5_000,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 5), 1_000),
    lazyConnect: true,
    // Commands issued in one event-loop turn go out in one write: a loopback write costs the
    // sender the receiver's TCP work too, and under concurrent requests it was the largest
    // single cost of a create.
    enableAutoPipelining: true,
    ...(opts.dial ? { Connector: egressConnector(opts.dial) } : {}),
  };
}

export function createRedisClient(opts: RedisConnectionOptions): RedisClient {
  if (opts.urls.length === 0) throw new Error('at least one Redis URL is required');
  const wantsTls = opts.urls.some((u) => u.startsWith('rediss://'));
  const tls = tlsOptions(opts.tls, wantsTls);
  const base = failFast(opts);
  if (opts.urls.length === 1 && opts.cluster !== true)
    return new Redis(opts.urls[0]!, { ...base, ...(tls ? { tls } : {}) });
  const nodes = opts.urls.map((u) => {
    const url = new URL(u);
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 6379) };
  });
  const first = new URL(opts.urls[0]!);
  const { retryStrategy: _perNode, enableOfflineQueue: _cluster, ...redisOptions } = base;
  return new Cluster(nodes, {
    enableOfflineQueue: false,
    lazyConnect: true,
    clusterRetryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 5), 1_000),
    redisOptions: {
      ...redisOptions,
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
      ...(tls ? { tls } : {}),
    },
  });
}

/**
 * The connection the watch hub blocks on (XREAD BLOCK would stall every other command of a
 * shared connection). It inherits the client's settings; its command timeout covers the block.
 */
export function createBlockingClient(
  client: RedisClient,
  blockMs: number,
  commandTimeoutMs: number,
): RedisClient {
  if (client instanceof Cluster) return client.duplicate();
  return client.duplicate({
    commandTimeout: blockMs + commandTimeoutMs,
    lazyConnect: true,
    enableAutoPipelining: false,
  });
}

/** Waits until the client is ready, at most `timeoutMs`; resolves false if it is not. */
export async function connectWithin(client: RedisClient, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return true;
  if (client.status === 'wait') client.connect().catch(() => undefined);
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ok);
    };
    const onReady = (): void => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    client.on('ready', onReady);
  });
}

/** Sends one command; the union's overloads are not callable directly, so this picks one. */
export function command(client: RedisClient, name: string, args: (string | number)[]): Promise<unknown> {
  return (client as Redis).call(name, args);
}

/**
 * Whether the server a single URL names runs in cluster mode (INFO's `cluster_enabled:1`), so
 * one seed node is enough to use a Cluster. undefined when the server could not be asked.
 */
export async function reportsClusterMode(client: Redis): Promise<boolean | undefined> {
  try {
    const info = String(await client.info('cluster'));
    return /^cluster_enabled:1\r?$/m.test(info);
  } catch {
    return undefined;
  }
}
