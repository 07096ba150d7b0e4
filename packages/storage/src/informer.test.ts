import { describe, expect, it } from 'vitest';
import { createMemoryStorage, StoreInformer, type InformerChange } from './index.js';

interface Obj {
  metadata: { name: string; resourceVersion?: string };
  value: number;
}

const obj = (name: string, value: number): Obj => ({ metadata: { name }, value });

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

describe('StoreInformer', () => {
  it('keeps only what its projection takes from each object', async () => {
    const storage = createMemoryStorage();
    await storage.create('/things/a', obj('a', 1));
    const informer = new StoreInformer<{ name: string }>(storage, '/things', {
      project: (o) => ({ name: String(o.metadata?.['name']) }),
    });
    const changes: InformerChange<{ name: string }>[] = [];
    informer.subscribe((c) => changes.push(c));
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    await informer.waitForSync();
    expect([...informer.list()]).toEqual([{ name: 'a' }]);
    await storage.create('/things/b', obj('b', 2));
    await until(() => changes.length === 2);
    expect(changes[1]).toEqual({ type: 'ADDED', key: '/things/b', object: { name: 'b' } });
    ac.abort();
    await running;
  });

  it('takes in the current state at once, then follows every change', async () => {
    const storage = createMemoryStorage();
    await storage.create('/things/a', obj('a', 1));
    await storage.create('/things/b', obj('b', 2));
    await storage.create('/other/x', obj('x', 9));
    const informer = new StoreInformer<Obj>(storage, '/things');
    const changes: InformerChange<Obj>[] = [];
    informer.subscribe((c) => changes.push(c));
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    expect(informer.hasSynced()).toBe(false);
    await informer.waitForSync();
    expect([...informer.list()].map((o) => o.metadata.name).sort()).toEqual(['a', 'b']);
    expect(changes).toEqual([{ type: 'replaced' }]);

    await storage.guaranteedUpdate<Obj>('/things/a', (cur) => ({ ...cur!, value: 10 }));
    await storage.delete('/things/b');
    await storage.create('/things/c', obj('c', 3));
    await until(() => changes.length === 4);
    expect(changes.slice(1).map((c) => c.type)).toEqual(['MODIFIED', 'DELETED', 'ADDED']);
    expect(informer.get('/things/a')?.value).toBe(10);
    expect(informer.get('/things/b')).toBeUndefined();
    expect(informer.get('/things/c')?.value).toBe(3);

    ac.abort();
    await running;
    await storage.close();
  });

  it('waits for a store that is empty and still syncs', async () => {
    const storage = createMemoryStorage();
    const informer = new StoreInformer<Obj>(storage, '/things');
    const ac = new AbortController();
    const running = informer.run(ac.signal);
    await informer.waitForSync();
    expect([...informer.list()]).toEqual([]);
    ac.abort();
    await running;
    await storage.close();
  });
});
