import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, inject } from 'vitest';
import { keyspace } from '../redis/keyspace.js';
import { createRedisStorage, type RedisUrlStorageOptions } from '../redis/redis-storage.js';
import type { Storage } from '../storage.js';

/** A prefix no other test uses, so tests can share one Redis. */
export const randomPrefix = (): string => `/test-${randomUUID()}`;

/** Deletes a store's keys by its layout (tests never SCAN either). */
export async function dropStore(client: Redis, prefix: string): Promise<void> {
  const k = keyspace(prefix);
  const members = await client.zrange(k.index, '0', '-1');
  const keys = [
    k.rv,
    k.compacted,
    k.log,
    k.index,
    k.expiry,
    k.versions,
    k.versionsAt,
    ...members.map((m) => k.object(m)),
  ];
  for (let i = 0; i < keys.length; i += 500) await client.del(...keys.slice(i, i + 500));
}

/** Deletes the keys of a store sharded by resource: one store per root it used. */
export async function dropShardedStore(
  client: Redis,
  prefix: string,
  roots: readonly string[],
): Promise<void> {
  for (const root of roots) await dropStore(client, `${prefix}${root}`);
}

/**
 * Stores on the shared test Redis (`inject('redisUrl')`), each on a random prefix unless given
 * one, closed and wiped after each test.
 */
export function redisFixture(): {
  url: string;
  open(opts?: Partial<RedisUrlStorageOptions>): Promise<Storage>;
  admin(): Redis;
} {
  const url = inject('redisUrl');
  const stores: Storage[] = [];
  const prefixes = new Set<string>();
  let adminClient: Redis | undefined;
  const admin = (): Redis => (adminClient ??= new Redis(url, { lazyConnect: false }));
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    for (const p of prefixes) await dropStore(admin(), p);
    prefixes.clear();
  });
  afterAll(async () => {
    await adminClient?.quit();
  });
  return {
    url,
    admin,
    async open(opts = {}) {
      const prefix = opts.prefix ?? randomPrefix();
      prefixes.add(prefix);
      const store = await createRedisStorage({
        watchBlockMs: 200,
        ...opts,
        urls: opts.urls ?? [url],
        prefix,
      });
      stores.push(store);
      return store;
    },
  };
}
