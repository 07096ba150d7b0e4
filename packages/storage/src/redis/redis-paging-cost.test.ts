import { startRedisServer, type RedisServer } from '@keel/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemMemo } from '../testing/item-memo.js';
import { keyspace } from './keyspace.js';
import { createRedisStorage } from './redis-storage.js';
import type { Storage } from '../storage.js';

/** Per-command call counts since the last CONFIG RESETSTAT (commands run by scripts included). */
async function commandCalls(r: Redis): Promise<Map<string, number>> {
  const info = await r.info('commandstats');
  const calls = new Map<string, number>();
  for (const m of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) calls.set(m[1]!, Number(m[2]));
  return calls;
}

/** Loads `n` objects straight into the documented layout; the store's own writes are slower. */
async function bulkLoad(r: Redis, prefix: string, n: number): Promise<void> {
  const k = keyspace(prefix);
  for (let i = 0; i < n; i += 1_000) {
    const p = r.pipeline();
    for (let j = i; j < Math.min(n, i + 1_000); j++) {
      const key = `/bulk/${String(j).padStart(6, '0')}`;
      p.zadd(k.index, '0', key).hset(
        k.object(key),
        'v',
        JSON.stringify({ metadata: { name: key } }),
        'rv',
        '1',
      );
    }
    await p.exec();
  }
  await r.set(k.rv, '1');
}

// A private server: CONFIG RESETSTAT and the counters must not see other test files' traffic.
describe('redis list paging cost', () => {
  let server: RedisServer;
  let admin: Redis;
  const stores: Storage[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url);
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await admin.quit();
    await server.close();
  });

  it.each([200, 20_000])('reads one page of a %i-object store with the same commands', async (n) => {
    const prefix = `/cost-${n}`;
    await bulkLoad(admin, prefix, n);
    const store = await createRedisStorage({ urls: [server.url], prefix });
    stores.push(store);
    // A write after the snapshot makes the page undo it from the log, as continued pages do.
    const first = await store.list('/bulk', { limit: 50 });
    await store.delete('/bulk/000010');
    await admin.config('RESETSTAT');
    const page = await store.list('/bulk', { limit: 50, continueKey: first.continueKey! });
    const calls = await commandCalls(admin);
    expect(page.items.map((o) => o.metadata?.['name'])).toEqual(
      Array.from({ length: 50 }, (_, i) => `/bulk/${String(50 + i).padStart(6, '0')}`),
    );
    expect(page.remainingItemCount).toBe(n - 100);
    expect(page.resourceVersion).toBe(first.resourceVersion);
    expect({
      hmget: calls.get('hmget'),
      zrangebylex: calls.get('zrangebylex'),
      zlexcount: calls.get('zlexcount'),
      xrange: calls.get('xrange'),
      scan: calls.get('scan'),
      keys: calls.get('keys'),
    }).toEqual({ hmget: 51, zrangebylex: 1, zlexcount: 1, xrange: 1, scan: undefined, keys: undefined });
  });

  it('reads no values of a page whose items the caller holds by version', async () => {
    const prefix = '/cost-held';
    await bulkLoad(admin, prefix, 20_000);
    const store = await createRedisStorage({ urls: [server.url], prefix });
    stores.push(store);
    const memo = itemMemo();
    const count = () =>
      commandCalls(admin).then((calls) => ({
        hget: calls.get('hget'),
        hmget: calls.get('hmget'),
        hset: calls.get('hset'),
        zrangebylex: calls.get('zrangebylex'),
        xrange: calls.get('xrange'),
        evalsha: calls.get('evalsha'),
      }));
    // Loaded as an older build wrote it (no versions hash): a version per item (HGET), then
    // the values of the 50 the memo does not hold yet (the values script's HMGET each).
    await admin.config('RESETSTAT');
    const first = await store.list('/bulk', { ...memo, limit: 50 });
    expect(await count()).toEqual({
      ...{ hget: 51, hmget: 50, hset: undefined },
      ...{ zrangebylex: 1, xrange: undefined, evalsha: 2 },
    });
    // This build's first write makes the versions hash trusted; the next keys-only page reads
    // it (one HMGET, which finds none of the old keys: the joined answer gives up, and the walk
    // item by item reads the page again), reads them from their hashes and adds them; the memo
    // holds none of this page yet (a second script, 50 HMGET of values).
    await store.delete('/bulk/000010');
    await admin.config('RESETSTAT');
    const held = await store.list('/bulk', { ...memo, limit: 50, continueKey: first.continueKey! });
    expect(await count()).toEqual({
      ...{ hget: 51, hmget: 2 + 50, hset: 51 },
      ...{ zrangebylex: 2, xrange: 1, evalsha: 2 },
    });
    await admin.config('RESETSTAT');
    const page = await store.list('/bulk', { ...memo, limit: 50, continueKey: first.continueKey! });
    expect(page).toEqual(held);
    expect(page.remainingItemCount).toBe(20_000 - 100);
    // Then one keys-only page script: the 51 versions in one HMGET, no HGET, no value read.
    expect(await count()).toEqual({
      ...{ hget: undefined, hmget: 1, hset: undefined },
      ...{ zrangebylex: 1, xrange: 1, evalsha: 1 },
    });
  });
});
