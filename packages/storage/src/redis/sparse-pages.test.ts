import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { GenericStorage } from '../generic-storage.js';
import { isStorageError } from '../errors.js';
import { itemMemo } from '../testing/item-memo.js';
import { dropStore, randomPrefix } from '../testing/redis-fixture.js';
import { createBlockingClient } from './connection.js';
import { keyspace } from './keyspace.js';
import { RedisBackend } from './redis-backend.js';
import type { KeyVersion, PageRequest, StorageBackend } from '../backend.js';
import type { ListOptions, ListResult, StoredObject } from '../storage.js';

/**
 * Lists whose caller holds items by key and version read a page as keys and versions, then the
 * values of the items it lacks (page-reader.ts). These tests write between those two reads, and
 * between pages, through a backend that runs a step just before the values are read.
 */

interface Spy {
  pageKeys: number;
  pages: number;
  /** The keys each readValues asked for. */
  values: string[][];
  /** Runs once, just before the next readValues. */
  beforeValues?: () => Promise<void>;
}

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

function spying(inner: RedisBackend, spy: Spy): StorageBackend {
  return {
    hub: inner.hub,
    read: (key) => inner.read(key),
    write: (op) => inner.write(op),
    page: (req: PageRequest) => {
      spy.pages++;
      return inner.page(req);
    },
    pageKeys: (req: PageRequest) => {
      spy.pageKeys++;
      return inner.pageKeys(req);
    },
    readValues: async (atRV: number, items: readonly KeyVersion[]) => {
      spy.values.push(items.map((i) => i.key));
      const step = spy.beforeValues;
      spy.beforeValues = undefined;
      await step?.();
      return inner.readValues(atRV, items);
    },
    readLog: (after, limit) => inner.readLog(after, limit),
    currentRV: () => inner.currentRV(),
    compact: (rv) => inner.compact(rv),
    reapExpired: () => inner.reapExpired(),
    ping: (ms) => inner.ping(ms),
    dbSize: () => inner.dbSize(),
    close: () => inner.close(),
  };
}

async function open(): Promise<{ store: GenericStorage; spy: Spy; backend: RedisBackend; prefix: string }> {
  const prefix = randomPrefix();
  const client = new Redis(url);
  const backend = new RedisBackend({
    client,
    owned: [],
    keys: keyspace(prefix),
    blockMs: 200,
    expirySafetyMarginMs: 300_000,
    blocking: () => createBlockingClient(client, 200, 5_000),
  });
  const spy: Spy = { pageKeys: 0, pages: 0, values: [] };
  const store = new GenericStorage(spying(backend, spy), { compactionIntervalMs: 0 });
  opened.push({ store, prefix, client });
  return { store, spy, backend, prefix };
}

const thing = (name: string, n = 0): StoredObject => ({ metadata: { name }, spec: { n } });
const key = (i: number): string => `/things/${String(i).padStart(2, '0')}`;

async function seed(store: GenericStorage, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await store.create(key(i), thing(key(i)));
}

/** What a list gives, for comparing two lists whole. */
function shape(r: ListResult<StoredObject>): unknown {
  return {
    items: r.items,
    resourceVersion: r.resourceVersion,
    continueKey: r.continueKey,
    remainingItemCount: r.remainingItemCount,
  };
}

describe('lists read as keys and versions first (Redis)', () => {
  it('reads only the values of items the caller does not hold, by version', async () => {
    const { store, spy } = await open();
    await seed(store, 10);
    const memo = itemMemo();
    const cold = await store.list('/things', memo);
    expect(spy.values).toEqual([Array.from({ length: 10 }, (_, i) => key(i))]);
    expect(shape(cold)).toEqual(shape(await store.list('/things')));

    spy.values = [];
    const warm = await store.list('/things', memo);
    expect(spy.values).toEqual([]);
    expect(shape(warm)).toEqual(shape(cold));

    // An update is a new version: only its value is read, and the list shows the new state.
    const updated = await store.guaranteedUpdate(key(3), (o) => ({ ...o!, spec: { n: 33 } }));
    await store.delete(key(7));
    const after = await store.list('/things', memo);
    expect(spy.values).toEqual([[key(3)]]);
    expect(after.items[3]).toEqual(updated);
    expect(after.items.map((o) => o.metadata?.['name'])).not.toContain(key(7));
    expect(shape(after)).toEqual(shape(await store.list('/things')));
  });

  it('lists keys that hold newlines or are not ASCII, and an empty prefix, like plain paging', async () => {
    const { store, spy } = await open();
    // In byte order, as the index keeps them.
    const names = ['/things/a', '/things/b\nc', '/things/d\n', '/things/z', '/things/é'];
    for (const name of names) await store.create(name, thing(name));
    const memo = itemMemo();
    await store.list('/things', memo);
    spy.pageKeys = 0;
    spy.values = [];
    // The joined answer cannot carry a key with a newline (the backend reads such a page again
    // as records): the keys and their held items still come out whole and in order.
    const warm = await store.list('/things', memo);
    expect(spy.pageKeys).toBe(1);
    expect(spy.values).toEqual([]);
    expect(shape(warm)).toEqual(shape(await store.list('/things')));
    expect(warm.items.map((o) => o.metadata?.['name'])).toEqual(names);
    // Paged: a page without such a key, then one with both.
    const first = await store.list('/things', { ...memo, limit: 1 });
    expect(shape(first)).toEqual(shape(await store.list('/things', { limit: 1 })));
    expect(shape(await store.list('/things', { ...memo, limit: 2, continueKey: first.continueKey }))).toEqual(
      shape(await store.list('/things', { limit: 2, continueKey: first.continueKey })),
    );
    expect((await store.list('/nothing', memo)).items).toEqual([]);
  });

  it('serves the page snapshot when objects are updated, deleted or created between the two reads', async () => {
    const { store, spy } = await open();
    await seed(store, 8);
    const memo = itemMemo();
    await store.list('/things', memo); // holds every item at its current version
    await store.guaranteedUpdate(key(1), (o) => ({ ...o!, spec: { n: 1 } }));
    await store.guaranteedUpdate(key(2), (o) => ({ ...o!, spec: { n: 2 } }));
    await store.guaranteedUpdate(key(3), (o) => ({ ...o!, spec: { n: 3 } }));
    const S = await store.currentResourceVersion();
    const snapshot = await store.list('/things', { resourceVersion: S, match: 'Exact' });
    spy.beforeValues = async () => {
      await store.guaranteedUpdate(key(1), (o) => ({ ...o!, spec: { n: 100 } }));
      await store.delete(key(2));
      await store.create('/things/00a', thing('/things/00a'));
      await store.guaranteedUpdate(key(5), (o) => ({ ...o!, spec: { n: 500 } })); // held: not read
    };
    const listed = await store.list('/things', memo);
    expect(spy.values.at(-1)).toEqual([key(1), key(2), key(3)]);
    expect(listed.resourceVersion).toBe(S);
    expect(shape(listed)).toEqual(shape(snapshot));
    expect(shape(await store.list('/things', { resourceVersion: S, match: 'Exact' }))).toEqual(shape(listed));
  });

  it('pages with continue tokens at the first page while objects move between pages and reads', async () => {
    const { store, spy } = await open();
    await seed(store, 12);
    const memo = itemMemo();
    await store.list('/things', memo);
    for (const i of [0, 4, 8]) await store.guaranteedUpdate(key(i), (o) => ({ ...o!, spec: { n: 100 + i } }));
    const S = await store.currentResourceVersion();
    const plain: ListResult<StoredObject>[] = [];
    for (let c: string | undefined; plain.length === 0 || c;) {
      const opts: ListOptions<StoredObject> = { limit: 4, resourceVersion: S, match: 'Exact' };
      const page = await store.list('/things', c ? { limit: 4, continueKey: c } : opts);
      plain.push(page);
      c = page.continueKey;
    }
    const pages: ListResult<StoredObject>[] = [];
    let n = 0;
    spy.values = [];
    for (let c: string | undefined; pages.length === 0 || c;) {
      // Each page's misses move before their values are read; other objects move between pages.
      spy.beforeValues = async () => {
        for (const i of [0, 4, 8])
          await store.guaranteedUpdate(key(i), (o) => ({ ...o!, spec: { n: 1000 } }));
        if (n === 0) await store.delete(key(9));
      };
      const page = await store.list('/things', { ...memo, limit: 4, ...(c ? { continueKey: c } : {}) });
      pages.push(page);
      c = page.continueKey;
      await store.create(`/things/${String(4 * ++n).padStart(2, '0')}a`, thing('late'));
      await store.guaranteedUpdate(key(10), (o) => ({ ...o!, spec: { n: 10 + n } }));
    }
    expect(pages.map(shape)).toEqual(plain.map(shape));
    expect(pages.map((p) => p.resourceVersion)).toEqual([S, S, S]);
    expect(pages[0]!.remainingItemCount).toBe(8);
    // Only the updated items were missing; each page asked for its own.
    expect(spy.values).toEqual([[key(0)], [key(4)], [key(8)]]);
  });

  it('reads a first page again at a fresh revision when the log no longer reaches the snapshot', async () => {
    const { store, spy, backend } = await open();
    await seed(store, 5);
    const memo = itemMemo();
    await store.list('/things', memo);
    await store.guaranteedUpdate(key(2), (o) => ({ ...o!, spec: { n: 2 } }));
    const S = Number(await store.currentResourceVersion());
    spy.beforeValues = async () => {
      await store.guaranteedUpdate(key(2), (o) => ({ ...o!, spec: { n: 22 } }));
      await backend.compact(await backend.currentRV());
    };
    const pagesBefore = spy.pages;
    const listed = await store.list('/things', memo);
    expect(spy.pages).toBe(pagesBefore + 1);
    expect(Number(listed.resourceVersion)).toBe(S + 1);
    expect(listed.items[2]?.['spec']).toEqual({ n: 22 });
  });

  it('fails a continued page with Expired when the log no longer reaches its snapshot', async () => {
    const { store, spy, backend } = await open();
    await seed(store, 6);
    const memo = itemMemo();
    const first = await store.list('/things', { ...memo, limit: 3 });
    await store.guaranteedUpdate(key(4), (o) => ({ ...o!, spec: { n: 4 } }));
    spy.beforeValues = async () => {
      await backend.compact(await backend.currentRV());
    };
    const err: unknown = await store
      .list('/things', { ...memo, limit: 3, continueKey: first.continueKey! })
      .catch((e: unknown) => e);
    expect(isStorageError(err) && err.code).toBe('Expired');
    expect(isStorageError(err) && err.continueKey).toBeTruthy();
  });

  it('leaves out an item whose state vanished without a log entry before its value was read', async () => {
    const { store, spy, prefix } = await open();
    await seed(store, 4);
    spy.beforeValues = async () => {
      await admin.del(keyspace(prefix).object(key(1))); // what the safety-net PEXPIREAT does
    };
    const listed = await store.list('/things', itemMemo());
    expect(listed.items.map((o) => o.metadata?.['name'])).toEqual([key(0), key(2), key(3)]);
  });

  it('reads values in batches, and plain pages after a page whose items were mostly missing', async () => {
    const { store, spy, prefix } = await open();
    // Loaded straight into the documented layout: 12,000 store writes would take long.
    const k = keyspace(prefix);
    for (let i = 0; i < 12_000; i += 1_000) {
      const p = admin.pipeline();
      for (let j = i; j < i + 1_000; j++) {
        const name = `/things/${String(j).padStart(5, '0')}`;
        p.zadd(k.index, '0', name).hset(k.object(name), 'v', JSON.stringify(thing(name)), 'rv', '1');
      }
      await p.exec();
    }
    await admin.set(k.rv, '1');
    const memo = itemMemo();
    const cold = await store.list('/things', memo);
    expect(cold.items).toHaveLength(12_000);
    // One keys-only page of 10,000, its values in batches (the first of 1,000, then sized by
    // what they weighed), then the rest as one plain page.
    expect({ keys: spy.pageKeys, pages: spy.pages, values: spy.values.map((v) => v.length) }).toEqual({
      keys: 1,
      pages: 1,
      values: [1_000, 9_000],
    });
    spy.pageKeys = 0;
    spy.pages = 0;
    spy.values = [];
    const warm = await store.list('/things', memo);
    expect(shape(warm)).toEqual(shape(cold));
    expect({ keys: spy.pageKeys, pages: spy.pages, values: spy.values }).toEqual({
      keys: 2,
      pages: 0,
      values: [],
    });
  });
});
