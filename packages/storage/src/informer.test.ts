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

  it("shares a change's decoded object with the sharing watches only when its readers only read", async () => {
    const storage = createMemoryStorage();
    const ac = new AbortController();
    const shared = new StoreInformer<Obj>(storage, '/things', { readOnly: true });
    const own = new StoreInformer<Obj>(storage, '/things');
    // A projecting informer's readOnly is its projection's promise: the projection reads the shared object.
    const projected: unknown[] = [];
    const projecting = new StoreInformer<{ name: string }>(storage, '/things', {
      readOnly: true,
      project: (o) => (projected.push(o), { name: String(o.metadata?.['name']) }),
    });
    const informers = [shared, own, projecting];
    const running = informers.map((i) => i.run(ac.signal));
    await Promise.all(informers.map((i) => i.waitForSync()));
    const seen: Obj[] = [];
    const watch = (async () => {
      for await (const ev of storage.watch<Obj>('/things', { signal: ac.signal, sharedObjects: true })) {
        if (ev.type === 'ADDED') seen.push(ev.object);
      }
    })();
    // The watch is live once it has seen a first change; the second one reaches all three alike.
    await storage.create('/things/warm', obj('warm', 0));
    await until(() => seen.length === 1);
    await storage.create('/things/a', obj('a', 1));
    await until(
      () => seen.length === 2 && shared.get('/things/a') !== undefined && own.get('/things/a') !== undefined,
    );
    expect(shared.get('/things/a')).toBe(seen[1]);
    expect(own.get('/things/a')).not.toBe(seen[1]);
    expect(own.get('/things/a')).toEqual(seen[1]);
    await until(() => projected.length === 2);
    expect(projected[1]).toBe(seen[1]);
    ac.abort();
    await Promise.all([...running, watch]);
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
