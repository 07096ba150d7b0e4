import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { describeStorageConformance, EventCollector } from '../testing/index.js';
import { describeListConformance } from '../testing/conformance.js';
import { withItemMemo } from '../testing/item-memo.js';
import { dropShardedStore, dropStore, randomPrefix, redisFixture } from '../testing/redis-fixture.js';
import { ShardedStorage } from '../sharded-storage.js';
import { keyspace } from './keyspace.js';
import { createRedisStorage, type RedisTopology } from './redis-storage.js';
import type { StoredObject } from '../storage.js';

const conformancePrefixes: string[] = [];
describeStorageConformance('redis', (opts) => {
  const prefix = randomPrefix();
  conformancePrefixes.push(prefix);
  return createRedisStorage({ urls: [inject('redisUrl')], prefix, watchBlockMs: 200, ...opts });
});

// The same promises with every list that may be served from memory served by the watch cache.
describeStorageConformance('redis, watch cache', (opts) => {
  const prefix = randomPrefix();
  conformancePrefixes.push(prefix);
  return createRedisStorage({
    urls: [inject('redisUrl')],
    prefix,
    watchBlockMs: 200,
    ...opts,
    watchCache: () => true,
  });
});

// Lists whose caller holds items by key and version (as the API server's encoded items):
// pages are read as keys and versions, then only the values of the items not held.
describeListConformance('redis, items held by version', async (opts) => {
  const prefix = randomPrefix();
  conformancePrefixes.push(prefix);
  return withItemMemo(
    await createRedisStorage({ urls: [inject('redisUrl')], prefix, watchBlockMs: 200, ...opts }),
  );
});

// The layout a Redis Cluster gets (one hash tag and sequence per resource), here on one Redis;
// test/faults/redis-cluster.test.ts runs the suite on a real cluster.
const sharded: { prefix: string; store: ShardedStorage }[] = [];
describeStorageConformance('redis, sharded by resource', async (opts) => {
  const prefix = randomPrefix();
  const store = await createRedisStorage({
    urls: [inject('redisUrl')],
    prefix,
    watchBlockMs: 200,
    ...opts,
    shardByResource: true,
  });
  if (!(store instanceof ShardedStorage)) throw new Error('shardByResource did not shard');
  sharded.push({ prefix, store });
  return store;
});

afterAll(async () => {
  // The suite closed its stores; wipe their keys from the shared Redis.
  const admin = new Redis(inject('redisUrl'));
  for (const prefix of conformancePrefixes) await dropStore(admin, prefix);
  for (const { prefix, store } of sharded) await dropShardedStore(admin, prefix, store.roots());
  await admin.quit();
});

const named = (name: string, n = 0): StoredObject => ({ metadata: { name }, spec: { n } });
const names = (items: StoredObject[]): unknown[] => items.map((o) => o.metadata?.['name']);

describe('redis storage', () => {
  const fx = redisFixture();

  it('shares one resourceVersion and one event log between stores on the same prefix', async () => {
    const prefix = randomPrefix();
    const [a, b] = [await fx.open({ prefix }), await fx.open({ prefix })];
    const w = new EventCollector(a, '/things', { resourceVersion: '0' });
    const rvs: number[] = [];
    for (let i = 0; i < 6; i++) {
      const s = i % 2 === 0 ? a : b;
      rvs.push(Number((await s.create(`/things/${i}`, named(String(i)))).metadata?.resourceVersion));
    }
    expect(rvs).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await a.currentResourceVersion()).toBe('6');
    expect(names((await b.list('/things')).items)).toEqual(['0', '1', '2', '3', '4', '5']);
    expect((await w.waitFor(6)).map((e) => (e.type === 'ERROR' ? e.error.code : e.resourceVersion))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
    await w.stop();
  });

  it('keeps prefixes apart', async () => {
    const [a, b] = [await fx.open(), await fx.open()];
    await a.create('/things/x', named('from-a'));
    await a.create('/things/y', named('from-a'));
    await b.create('/things/x', named('from-b'));
    expect(names((await a.list('/things')).items)).toEqual(['from-a', 'from-a']);
    expect(names((await b.list('/things')).items)).toEqual(['from-b']);
    expect([await a.currentResourceVersion(), await b.currentResourceVersion()]).toEqual(['2', '1']);
  });

  it('lays its keys out as documented, with a PEXPIREAT safety net after the logical expiry', async () => {
    const prefix = randomPrefix();
    const s = await fx.open({ prefix, expirySafetyMarginMs: 60_000 });
    await s.create('/events/ns/e1', named('e1'), { ttlSeconds: 3600 });
    await s.create('/pods/ns/p1', named('p1'));
    const k = keyspace(prefix);
    const r = fx.admin();
    expect(await r.get(k.rv)).toBe('2');
    expect(await r.zrange(k.index, '0', '-1')).toEqual(['/events/ns/e1', '/pods/ns/p1']);
    expect(await r.zrange(k.expiry, '0', '-1')).toEqual(['/events/ns/e1']);
    expect(await r.hgetall(k.object('/pods/ns/p1'))).toEqual({
      v: '{"metadata":{"name":"p1"},"spec":{"n":0}}',
      rv: '2',
    });
    const pttl = await r.pttl(k.object('/events/ns/e1'));
    expect(pttl).toBeGreaterThan(3_600_000 + 50_000);
    expect(pttl).toBeLessThanOrEqual(3_660_000);
    expect(await r.pttl(k.object('/pods/ns/p1'))).toBe(-1);
    const log = await r.xrange(k.log, '-', '+');
    expect(log.map(([id]) => id)).toEqual(['1-0', '2-0']);
  });

  it('reaps an expired object once even when several servers reap the same Redis', async () => {
    const prefix = randomPrefix();
    const stores = [
      await fx.open({ prefix, reaperIntervalMs: 20 }),
      await fx.open({ prefix, reaperIntervalMs: 20 }),
      await fx.open({ prefix, reaperIntervalMs: 20 }),
    ];
    const w = new EventCollector(stores[0]!, '/things', { resourceVersion: '0' });
    await stores[1]!.create('/things/short', named('short'), { ttlSeconds: 0.2 });
    await w.waitFor(2, 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    expect(await stores[2]!.currentResourceVersion()).toBe('2');
    await w.stop();
  });

  it('only closes the clients it created', async () => {
    const client = new Redis(fx.url);
    const prefix = randomPrefix();
    try {
      const s = await createRedisStorage({ client, prefix });
      await s.create('/things/a', named('a'));
      const w = new EventCollector(s, '/things');
      await w.waitFor(1);
      await s.close();
      await w.done;
      expect(await client.ping()).toBe('PONG');
    } finally {
      await dropStore(client, prefix);
      await client.quit();
    }
  });

  it('rejects a prefix that would break the cluster hash tag', async () => {
    await expect(createRedisStorage({ urls: [fx.url], prefix: '/a{b}' })).rejects.toThrow(/must not contain/);
  });

  it('keeps one store on one Redis, and one per resource when sharded by resource', async () => {
    const topologies: RedisTopology[] = [];
    const plainPrefix = randomPrefix();
    const plain = await fx.open({ prefix: plainPrefix, onTopology: (t) => topologies.push(t) });
    await plain.create('/a/x', named('x'));
    await plain.create('/b/y', named('y'));
    expect(await fx.admin().get(keyspace(plainPrefix).rv)).toBe('2');

    const p = randomPrefix();
    const sharded = await createRedisStorage({
      urls: [fx.url],
      prefix: p,
      watchBlockMs: 200,
      shardByResource: true,
      onTopology: (t) => topologies.push(t),
    });
    try {
      expect(topologies).toEqual([
        { cluster: false, shardByResource: false },
        { cluster: false, shardByResource: true },
      ]);
      const w = new EventCollector(sharded, '/a', { resourceVersion: '0' });
      await sharded.create('/a/x', named('x'));
      await sharded.create('/b/y', named('y'));
      await sharded.create('/a/z', named('z'));
      const admin = fx.admin();
      expect([await admin.get(keyspace(`${p}/a`).rv), await admin.get(keyspace(`${p}/b`).rv)]).toEqual([
        '2',
        '1',
      ]);
      expect(await admin.exists(keyspace(p).rv)).toBe(0);
      expect(await sharded.currentResourceVersion('/b')).toBe('1');
      // A page and its continuation come from the resource's own sequence.
      const first = await sharded.list('/a', { limit: 1 });
      expect([first.resourceVersion, names(first.items)]).toEqual(['2', ['x']]);
      const rest = await sharded.list('/a', { limit: 1, continueKey: first.continueKey! });
      expect(names(rest.items)).toEqual(['z']);
      expect((await w.waitFor(2)).map((e) => (e.type === 'ADDED' ? e.key : e.type))).toEqual([
        '/a/x',
        '/a/z',
      ]);
      await w.stop();
    } finally {
      await sharded.close();
      if (sharded instanceof ShardedStorage) await dropShardedStore(fx.admin(), p, sharded.roots());
    }
  });
});
