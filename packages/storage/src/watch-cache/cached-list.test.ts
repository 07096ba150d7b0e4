import { describe, expect, it } from 'vitest';
import type { PageRequest, StorageBackend } from '../backend.js';
import { GenericStorage } from '../generic-storage.js';
import { MemoryBackend } from '../memory/memory-backend.js';
import type { StoredObject } from '../storage.js';

/** A memory backend that counts the pages read from it: a list the cache serves reads none. */
function counted(): { backend: StorageBackend; pages: () => number } {
  const inner = new MemoryBackend();
  let pages = 0;
  const backend = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'page')
        return (req: PageRequest) => {
          pages++;
          return target.page(req);
        };
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { backend, pages: () => pages };
}

const pod = (ns: string, name: string, phase = 'Pending'): StoredObject => ({
  metadata: { name, namespace: ns },
  status: { phase },
});
const names = (items: StoredObject[]) =>
  items.map((o) => `${String(o.metadata?.['namespace'])}/${String(o.metadata?.['name'])}`);

describe('watch cache', () => {
  function setup(roots: readonly string[] = ['/pods']) {
    const c = counted();
    const storage = new GenericStorage(c.backend, {
      watchCache: (root) => roots.includes(root),
      resourceVersionWaitMs: 500,
    });
    return { ...c, storage };
  }

  it('serves consistent, any and not-older-than lists from memory once filled, with what was just written', async () => {
    const { storage, pages } = setup();
    await storage.create('/pods/a/one', pod('a', 'one'));
    await storage.list('/pods'); // fills the cache
    const filled = pages();
    const two = await storage.create('/pods/b/two', pod('b', 'two'));
    const consistent = await storage.list('/pods');
    expect(names(consistent.items)).toEqual(['a/one', 'b/two']);
    expect(Number(consistent.resourceVersion)).toBeGreaterThanOrEqual(
      Number(two.metadata?.['resourceVersion']),
    );
    expect(names((await storage.list('/pods/b', { resourceVersion: '0' })).items)).toEqual(['b/two']);
    const rv = String(two.metadata?.['resourceVersion']);
    expect(
      names((await storage.list('/pods', { resourceVersion: rv, match: 'NotOlderThan' })).items),
    ).toHaveLength(2);
    await storage.guaranteedUpdate<StoredObject>('/pods/a/one', (c) => ({
      ...(c ?? {}),
      status: { phase: 'Running' },
    }));
    await storage.delete('/pods/b/two');
    const after = await storage.list('/pods', {
      predicate: (o: StoredObject) => (o['status'] as { phase: string }).phase === 'Running',
    });
    expect(names(after.items)).toEqual(['a/one']);
    expect(pages()).toBe(filled);
  });

  it('sends pages, continue tokens, exact revisions and uncached roots to the store', async () => {
    const { storage, pages } = setup();
    for (const n of ['x', 'y', 'z']) await storage.create(`/pods/a/${n}`, pod('a', n));
    await storage.create('/events/a/e', pod('a', 'e'));
    const first = await storage.list('/pods');
    let before = pages();
    const page = await storage.list('/pods', { limit: 2 });
    expect(names(page.items)).toEqual(['a/x', 'a/y']);
    expect(pages()).toBeGreaterThan(before);
    before = pages();
    await storage.list('/pods', { continueKey: page.continueKey ?? '' });
    await storage.list('/pods', { resourceVersion: first.resourceVersion, match: 'Exact' });
    await storage.list('/events');
    expect(pages()).toBeGreaterThanOrEqual(before + 3);
  });

  it('expires objects with the store, through the same feed', async () => {
    let now = 1_000_000;
    const inner = new MemoryBackend({ now: () => now });
    const storage = new GenericStorage(inner, { watchCache: () => true, reaperIntervalMs: 10 });
    await storage.create('/pods/a/short', pod('a', 'short'), { ttlSeconds: 1 });
    expect(names((await storage.list('/pods')).items)).toEqual(['a/short']);
    now += 2_000;
    await new Promise((r) => setTimeout(r, 50));
    expect((await storage.list('/pods')).items).toEqual([]);
    await storage.close();
  });
});
