import { afterEach, describe, expect, it } from 'vitest';
import { GenericStorage } from '../generic-storage.js';
import { MemoryBackend } from '../memory/memory-backend.js';
import { createMemoryStorage } from '../memory/memory-storage.js';
import { EventCollector, obj, type Obj } from '../testing/helpers.js';
import type { Storage, WatchEvent } from '../storage.js';

const objectOf = (ev: WatchEvent<Obj> | undefined): Obj | undefined =>
  ev && 'object' in ev ? ev.object : undefined;
const types = (evs: readonly WatchEvent<Obj>[]) => evs.map((e) => e.type);

/** WatchOptions.sharedObjects: one decode per change for every watch that only reads. */
describe('watches sharing decoded objects', () => {
  let store: Storage;
  const collectors: EventCollector[] = [];
  const watch = (opts: ConstructorParameters<typeof EventCollector>[2]) => {
    const c = new EventCollector(store, '/things', opts);
    collectors.push(c);
    return c;
  };

  afterEach(async () => {
    for (const c of collectors.splice(0)) await c.stop();
  });

  /** A store with one object already, and the version it is at (a watch from it sees only changes). */
  async function started(s: Storage): Promise<string> {
    store = s;
    await store.create('/things/first', obj('first'));
    return store.currentResourceVersion('/things');
  }

  it('hands the same object of a change to every sharing watch, and a fresh one per change', async () => {
    const rv = await started(createMemoryStorage());
    const a = watch({ resourceVersion: rv, sharedObjects: true });
    const b = watch({ resourceVersion: rv, sharedObjects: true });
    const own = watch({ resourceVersion: rv });
    await store.create('/things/x', obj('x', { n: 1 }));
    await store.guaranteedUpdate<Obj>('/things/x', (cur) => ({ ...cur!, spec: { n: 2 } }));
    const [a1, a2] = await a.waitFor(2);
    const [b1, b2] = await b.waitFor(2);
    const [o1] = await own.waitFor(2);
    expect(types([a1!, a2!])).toEqual(['ADDED', 'MODIFIED']);
    expect(objectOf(a1)).toBe(objectOf(b1));
    expect(objectOf(a2)).toBe(objectOf(b2));
    // Each change is its own object: the second state is not the first one changed in place.
    expect(objectOf(a2)).not.toBe(objectOf(a1));
    expect(objectOf(a1)?.spec).toEqual({ n: 1 });
    expect(objectOf(a2)?.spec).toEqual({ n: 2 });
    expect(objectOf(a2)?.metadata.resourceVersion).toBe(
      a2 && 'resourceVersion' in a2 ? a2.resourceVersion : '',
    );
    // A watch that did not ask to share gets objects of its own, equal in content.
    expect(objectOf(o1)).not.toBe(objectOf(a1));
    expect(objectOf(o1)).toEqual(objectOf(a1));
  });

  it('keeps each watch its own view of a change through its predicate', async () => {
    const rv = await started(createMemoryStorage());
    const red = watch({
      resourceVersion: rv,
      sharedObjects: true,
      predicate: (o) => (o as Obj).spec?.color === 'red',
    });
    const all = watch({ resourceVersion: rv, sharedObjects: true });
    await store.create('/things/x', obj('x', { color: 'red' }));
    await store.guaranteedUpdate<Obj>('/things/x', (cur) => ({ ...cur!, spec: { color: 'blue' } }));
    const r = await red.waitFor(2);
    const e = await all.waitFor(2);
    // Stops matching: DELETED with the previous state, while the unfiltered watch sees MODIFIED.
    expect(types(r)).toEqual(['ADDED', 'DELETED']);
    expect(types(e)).toEqual(['ADDED', 'MODIFIED']);
    expect(objectOf(r[1])?.spec).toEqual({ color: 'red' });
    expect(objectOf(e[1])?.spec).toEqual({ color: 'blue' });
    expect(objectOf(r[0])).toBe(objectOf(e[0]));
  });

  it('decodes the previous state for a filtered watch after an unfiltered one took the change', async () => {
    const rv = await started(createMemoryStorage());
    // The unfiltered watches come first: the change is decoded without its previous state, which
    // the filtered ones then need (shared or not).
    const all = watch({ resourceVersion: rv, sharedObjects: true });
    const plain = watch({ resourceVersion: rv });
    const red = watch({
      resourceVersion: rv,
      sharedObjects: true,
      predicate: (o) => (o as Obj).spec?.color === 'red',
    });
    const redOwn = watch({ resourceVersion: rv, predicate: (o) => (o as Obj).spec?.color === 'red' });
    await store.create('/things/x', obj('x', { color: 'red' }));
    await store.guaranteedUpdate<Obj>('/things/x', (cur) => ({ ...cur!, spec: { color: 'blue' } }));
    await store.delete('/things/x');
    expect(types(await all.waitFor(3))).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    const p = await plain.waitFor(3);
    expect(types(p)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(objectOf(p[2])?.spec).toEqual({ color: 'blue' });
    for (const w of [red, redOwn]) {
      const r = await w.waitFor(2);
      expect(types(r)).toEqual(['ADDED', 'DELETED']);
      expect(objectOf(r[1])?.spec).toEqual({ color: 'red' });
    }
  });

  it('shares the initial state of a watch cache, and a change replaces the shared object', async () => {
    store = new GenericStorage(new MemoryBackend(), { watchCache: (root) => root === '/things' });
    await store.create('/things/x', obj('x', { n: 1 }));
    const a = watch({ resourceVersion: '0', sharedObjects: true });
    const [a1] = await a.waitFor(1);
    const b = watch({ resourceVersion: '0', sharedObjects: true });
    const [b1] = await b.waitFor(1);
    expect(types([a1!, b1!])).toEqual(['ADDED', 'ADDED']);
    expect(objectOf(a1)).toBe(objectOf(b1));
    await store.guaranteedUpdate<Obj>('/things/x', (cur) => ({ ...cur!, spec: { n: 2 } }));
    await a.waitFor(2);
    // A watch starting after the change gets the new state, not the object decoded before it.
    const c = watch({ resourceVersion: '0', sharedObjects: true });
    const [c1] = await c.waitFor(1);
    expect(objectOf(c1)?.spec).toEqual({ n: 2 });
    expect(objectOf(c1)).not.toBe(objectOf(a1));
    expect(objectOf(a1)?.spec).toEqual({ n: 1 });
  });
});
