import type { Storage } from '../storage.js';
import type { RedisStorageOptions } from './redis-storage.js';

/**
 * createRedisStorage, with the Redis backend and ioredis loaded on the first call rather than with
 * the package: the embedded store never needs them, and loading them is part of every start-up.
 */
export async function createRedisStorage(opts: RedisStorageOptions): Promise<Storage> {
  const redis = await import('./redis-storage.js');
  return redis.createRedisStorage(opts);
}
