import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { GenericStorage } from '../generic-storage.js';
import { itemMemo } from '../testing/item-memo.js';
import { dropStore, randomPrefix } from '../testing/redis-fixture.js';
import { createBlockingClient } from './connection.js';
import { keyspace, type Keyspace } from './keyspace.js';
import { RedisBackend } from './redis-backend.js';
import type { ListResult, StoredObject } from '../storage.js';

/**
 * The versions hash (keyspace.ts) that keys-only pages read their versions from: it must never
 * make a list name a version other than the object's, whatever wrote the store before (an older
 * build's layout without the hash, an older build writing beside this one, the PEXPIREAT safety
 * net dropping an object hash without a script).
 */

const url = inject('redisUrl');
const admin = new Redis(url);
const opened: { store: GenericStorage; prefix: string; client: Redis }[] = [];

afterEach(async () => {
  for (const { store, prefix, client } of opened.splice(0)) {
    await store.close();
    await client.quit();
    await dropStore(admin, prefix);
  }
});
afterAll(async () => {
  await admin.quit();
});

async function open(
  prefix = randomPrefix(),
): Promise<{ store: GenericStorage; k: Keyspace; backend: RedisBackend }> {
  const client = new Redis(url);
  const backend = new RedisBackend({
    client,
    owned: [],
    keys: keyspace(prefix),
    blockMs: 200,
    expirySafetyMarginMs: 300_000,
    blocking: () => createBlockingClient(client, 200, 5_000),
  });
  // No reaper: the tests below stage what Redis holds between reaps.
  const store = new GenericStorage(backend, { compactionIntervalMs: 0, reaperIntervalMs: 0 });
  opened.push({ store, prefix, client });
  return { store, k: keyspace(prefix), backend };
}

const thing = (name: string, n = 0): StoredObject => ({ metadata: { name }, spec: { n } });
const key = (i: number): string => `/things/${String(i).padStart(2, '0')}`;

const nameOf = (o: StoredObject): unknown => o.metadata?.['name'];
const specN = (o: StoredObject): unknown => (o['spec'] as { n?: number } | undefined)?.n;

/** What a list gives, for comparing two lists whole. */
const shape = (r: ListResult<StoredObject>): unknown => ({
  items: r.items,
  resourceVersion: r.resourceVersion,
  continueKey: r.continueKey,
  remainingItemCount: r.remainingItemCount,
});

/** What an older build's write script does for an update: no versions hash, no versions-at. */
async function olderBuildUpdate(k: Keyspace, name: string, n: number): Promise<void> {
  const [v, r] = await admin.hmget(k.object(name), 'v', 'rv');
  const rv = await admin.incr(k.rv);
  const value = JSON.stringify(thing(name, n));
  await admin.hset(k.object(name), 'v', value, 'rv', String(rv));
  await admin.xadd(k.log, `${rv}-0`, 't', 'MODIFIED', 'k', name, 'v', value, 'p', v!, 'r', r!);
}

describe('the versions hash of keys-only pages (Redis)', () => {
  it('is kept by every write, delete and reap, and versions-at follows the counter', async () => {
    const { store, k, backend } = await open();
    await store.create(key(0), thing(key(0)));
    await store.create(key(1), thing(key(1)), { ttlSeconds: 3600 });
    await store.guaranteedUpdate(key(0), (o) => ({ ...o!, spec: { n: 1 } }));
    await store.create(key(2), thing(key(2)));
    await store.delete(key(2));
    expect(await admin.hgetall(k.versions)).toEqual({ [key(0)]: '3', [key(1)]: '2' });
    expect(await admin.get(k.versionsAt)).toBe('5');
    await admin.zadd(k.expiry, '0', key(1)); // logically expired long ago
    expect(await backend.reapExpired()).toBe(1);
    expect(await admin.hgetall(k.versions)).toEqual({ [key(0)]: '3' });
    expect(await admin.get(k.versionsAt)).toBe('6');
  });

  it('lists an older layout (no versions hash) from its object hashes, mixed with new writes', async () => {
    const prefix = randomPrefix();
    const k = keyspace(prefix);
    // Written by an older build: objects, index and log, no versions hash.
    for (let i = 0; i < 6; i++) {
      const value = JSON.stringify(thing(key(i)));
      await admin.zadd(k.index, '0', key(i));
      await admin.hset(k.object(key(i)), 'v', value, 'rv', String(i + 1));
      await admin.xadd(k.log, `${i + 1}-0`, 't', 'ADDED', 'k', key(i), 'v', value);
    }
    await admin.set(k.rv, '6');
    const { store } = await open(prefix);
    const memo = itemMemo();
    const plain = await store.list('/things');
    expect(shape(await store.list('/things', memo))).toEqual(shape(plain));
    // This build writes beside the old keys: the hash holds only what it wrote until a list
    // adds the rest.
    await store.guaranteedUpdate(key(2), (o) => ({ ...o!, spec: { n: 7 } }));
    await store.create(key(6), thing(key(6)));
    await store.delete(key(4));
    expect(await admin.hgetall(k.versions)).toEqual({ [key(2)]: '7', [key(6)]: '8' });
    const after = await store.list('/things');
    expect(after.items.map((o) => [nameOf(o), specN(o)])).toEqual([
      [key(0), 0],
      [key(1), 0],
      [key(2), 7],
      [key(3), 0],
      [key(5), 0],
      [key(6), 0],
    ]);
    expect(shape(await store.list('/things', memo))).toEqual(shape(after));
    expect(await admin.hlen(k.versions)).toBe(6);
    expect(shape(await store.list('/things', memo))).toEqual(shape(after));
    // Pages with continue tokens, through the hash, equal plain paging.
    const first = await store.list('/things', { ...memo, limit: 4 });
    expect(shape(first)).toEqual(shape(await store.list('/things', { limit: 4 })));
    const next = await store.list('/things', { ...memo, limit: 4, continueKey: first.continueKey! });
    expect(shape(next)).toEqual(
      shape(await store.list('/things', { limit: 4, continueKey: first.continueKey! })),
    );
  });

  it('is not trusted after a write by an older build, and is emptied by the next write of this one', async () => {
    const { store, k } = await open();
    for (let i = 0; i < 4; i++) await store.create(key(i), thing(key(i)));
    const memo = itemMemo();
    await store.list('/things', memo); // the memo holds every item at its version
    await olderBuildUpdate(k, key(1), 5);
    // The hash still says key 1 is at version 2; the list must not serve the memo's old state.
    const listed = await store.list('/things', memo);
    expect(listed.items.map((o) => specN(o))).toEqual([0, 5, 0, 0]);
    expect(shape(listed)).toEqual(shape(await store.list('/things')));
    // No list adds entries while the hash is not trusted.
    expect(await admin.hget(k.versions, key(1))).toBe('2');
    await store.guaranteedUpdate(key(3), (o) => ({ ...o!, spec: { n: 9 } }));
    expect(await admin.hgetall(k.versions)).toEqual({ [key(3)]: '6' });
    expect(await admin.get(k.versionsAt)).toBe('6');
    await olderBuildUpdate(k, key(1), 6);
    await store.guaranteedUpdate(key(0), (o) => ({ ...o!, spec: { n: 8 } }));
    expect(await admin.hgetall(k.versions)).toEqual({ [key(0)]: '8' });
    const again = await store.list('/things', memo);
    expect(again.items.map((o) => specN(o))).toEqual([8, 6, 0, 9]);
    expect(shape(again)).toEqual(shape(await store.list('/things')));
  });

  it('leaves out an object past its logical expiry whose hash the safety net dropped', async () => {
    const { store, k } = await open();
    await store.create(key(0), thing(key(0)));
    await store.create(key(1), thing(key(1)), { ttlSeconds: 3600 });
    await store.create(key(2), thing(key(2)), { ttlSeconds: 3600 });
    const memo = itemMemo();
    expect((await store.list('/things', memo)).items).toHaveLength(3);
    // Logically expired, not reaped, and its object hash gone as PEXPIREAT would drop it: the
    // hash's entry stays, the list must not serve it from the memo.
    await admin.zadd(k.expiry, '0', key(1));
    await admin.del(k.object(key(1)));
    const listed = await store.list('/things', memo);
    expect(listed.items.map((o) => nameOf(o))).toEqual([key(0), key(2)]);
    expect(shape(listed)).toEqual(shape(await store.list('/things')));
  });

  it('answers snapshots of a continued list from the log for keys written since', async () => {
    const { store } = await open();
    for (let i = 0; i < 8; i++) await store.create(key(i), thing(key(i)));
    const memo = itemMemo();
    const first = await store.list('/things', { ...memo, limit: 3 });
    await store.guaranteedUpdate(key(4), (o) => ({ ...o!, spec: { n: 1 } }));
    await store.delete(key(5));
    await store.create(key(9), thing(key(9)));
    const next = await store.list('/things', { ...memo, limit: 3, continueKey: first.continueKey! });
    expect(shape(next)).toEqual(
      shape(await store.list('/things', { limit: 3, continueKey: first.continueKey! })),
    );
    expect(next.items.map((o) => [nameOf(o), specN(o)])).toEqual([
      [key(3), 0],
      [key(4), 0],
      [key(5), 0],
    ]);
  });
});
