import { afterEach, describe, expect, it } from 'vitest';
import type { HubListener, StorageBackend } from '../backend.js';
import { StorageError } from '../errors.js';
import { GenericStorage } from '../generic-storage.js';
import { MemoryBackend } from '../memory/memory-backend.js';
import { describe as show, EventCollector, obj, sleep, type Obj } from '../testing/helpers.js';
import type { WatchCacheSize } from './watch-caches.js';

/**
 * A memory backend that counts the store reads a watch makes (history and pages) and can break
 * its event feed the way a Redis feed breaks when history was compacted while it was away.
 */
function instrumented() {
  const inner = new MemoryBackend();
  const counts = { readLog: 0, page: 0 };
  const listeners: HubListener[] = [];
  const hub = {
    get position() {
      return inner.hub.position;
    },
    subscribe(l: HubListener) {
      listeners.push(l);
      return inner.hub.subscribe(l);
    },
  };
  const backend = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'hub') return hub;
      if (prop === 'readLog' || prop === 'page') {
        const fn = Reflect.get(target, prop, receiver) as (...a: unknown[]) => unknown;
        return (...args: unknown[]) => {
          counts[prop]++;
          return fn.apply(target, args);
        };
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as StorageBackend;
  const breakFeed = () => {
    for (const l of listeners) l.onError(new StorageError('Expired', 'feed lost events'));
  };
  return { inner, backend, counts, breakFeed };
}

const open: GenericStorage[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

function setup(size: WatchCacheSize = 5) {
  const b = instrumented();
  const storage = new GenericStorage(b.backend, {
    watchCache: (root) => (root === '/pods' ? size : false),
    resourceVersionWaitMs: 300,
  });
  open.push(storage);
  return { ...b, storage };
}

const rvOf = (o: Obj) => Number(o.metadata.resourceVersion);
const reads = (c: { readLog: number; page: number }) => c.readLog + c.page;

describe('watches served from the watch cache', () => {
  it('replays a version inside the window from memory, then streams live', async () => {
    const { storage, counts } = setup(5);
    await storage.list('/pods'); // fills the cache
    const a = await storage.create('/pods/ns/a', obj('a'));
    await storage.create('/pods/ns/b', obj('b'));
    await storage.create('/other/ns/x', obj('x'));
    await storage.create('/pods/ns/c', obj('c'));
    const before = reads(counts);
    const w = new EventCollector(storage, '/pods', { resourceVersion: String(rvOf(a)) });
    expect((await w.waitFor(2)).map(show)).toEqual(['ADDED b 2', 'ADDED c 4']);
    expect(storage.cachedWatchers).toBe(1);
    await storage.delete('/pods/ns/a');
    expect((await w.waitFor(3)).map(show)[2]).toBe('DELETED a 5');
    expect(reads(counts)).toBe(before);
    await w.stop();
    expect(storage.cachedWatchers).toBe(0);
  });

  it('answers 410 for a version that left the window, although the store still holds it', async () => {
    const { storage, backend } = setup(3);
    await storage.list('/pods');
    const from = rvOf(await storage.create('/pods/ns/p0', obj('p0')));
    for (let i = 1; i <= 4; i++) await storage.create(`/pods/ns/p${i}`, obj(`p${i}`));
    // The window holds the versions 3..5; it resumes after 2 at the earliest.
    const w = new EventCollector(storage, '/pods', { resourceVersion: String(from) });
    await w.done;
    expect(w.events.map(show)).toEqual(['ERROR Expired']);
    const err = w.events[0];
    expect(err?.type === 'ERROR' && err.error.message).toBe(`too old resource version: ${from} (2)`);
    expect((await backend.readLog(from, 10)).kind).toBe('ok');
    const ok = new EventCollector(storage, '/pods', { resourceVersion: '2' });
    expect((await ok.waitFor(3)).map(show)).toEqual(['ADDED p2 3', 'ADDED p3 4', 'ADDED p4 5']);
    await ok.stop();
  });

  it.each([undefined, '0'])(
    'starts a watch at resourceVersion %s from the cached state, filtered by the predicate',
    async (resourceVersion) => {
      const { storage, counts } = setup();
      await storage.create('/pods/ns/red', obj('red', { color: 'red' }));
      await storage.create('/pods/ns/blue', obj('blue', { color: 'blue' }));
      await storage.create('/pods/other/blue2', obj('blue2', { color: 'blue' }));
      await storage.list('/pods');
      const before = reads(counts);
      const w = new EventCollector(storage, '/pods/ns', {
        ...(resourceVersion === undefined ? {} : { resourceVersion }),
        predicate: (o) => o.spec?.color === 'blue',
        bookmarks: true,
      });
      const initial = await w.waitFor(2);
      expect(initial.map(show)).toEqual(['ADDED blue 2', 'BOOKMARK 3']);
      expect(initial[1]).toMatchObject({ initialEventsEnd: true });
      // Leaving and entering the selector, as the store's watch reports them.
      await storage.guaranteedUpdate<Obj>('/pods/ns/blue', (o) => ({ ...o!, spec: { color: 'red' } }));
      await storage.guaranteedUpdate<Obj>('/pods/ns/red', (o) => ({ ...o!, spec: { color: 'blue' } }));
      await storage.create('/pods/other/blue3', obj('blue3', { color: 'blue' }));
      await storage.create('/pods/ns/blue4', obj('blue4', { color: 'blue' }));
      expect((await w.waitFor(5)).map(show).slice(2)).toEqual([
        'DELETED blue 4',
        'ADDED red 5',
        'ADDED blue4 7',
      ]);
      expect(reads(counts)).toBe(before);
      await w.stop();
    },
  );

  it('waits for a version the cache has not reached, and answers Too large when it does not come', async () => {
    const { storage, counts } = setup();
    await storage.list('/pods');
    const before = reads(counts);
    const w = new EventCollector(storage, '/pods', { resourceVersion: '1' });
    await sleep(50);
    await storage.create('/pods/ns/a', obj('a')); // 1: the version the watch starts after
    await storage.create('/pods/ns/b', obj('b'));
    expect((await w.waitFor(1)).map(show)).toEqual(['ADDED b 2']);
    expect(reads(counts)).toBe(before);
    await w.stop();
    const ahead = new EventCollector(storage, '/pods', { resourceVersion: '100' });
    await ahead.done;
    expect(ahead.events.map(show)).toEqual(['ERROR TooLargeResourceVersion']);
    const err = ahead.events[0];
    expect(err?.type === 'ERROR' && err.error.message).toBe('Too large resource version: 100, current: 2');
  });

  it('serves a version from before the cache existed from the store', async () => {
    const { storage, counts } = setup();
    const a = await storage.create('/pods/ns/a', obj('a'));
    await storage.create('/pods/ns/b', obj('b'));
    await storage.list('/pods'); // the cache starts at 2
    const before = counts.readLog;
    const w = new EventCollector(storage, '/pods', { resourceVersion: String(rvOf(a)) });
    expect((await w.waitFor(1)).map(show)).toEqual(['ADDED b 2']);
    expect(counts.readLog).toBeGreaterThan(before);
    expect(storage.cachedWatchers).toBe(0);
    await w.stop();
  });

  it('ends its watches cleanly when the feed loses events; the next watch is the store’s', async () => {
    const { storage, counts, breakFeed } = setup();
    await storage.list('/pods');
    const w = new EventCollector(storage, '/pods', { resourceVersion: '0' });
    await storage.create('/pods/ns/a', obj('a'));
    await w.waitFor(1);
    expect(storage.cachedWatchers).toBe(1);
    breakFeed();
    await w.done;
    expect(w.events.map(show)).toEqual(['ADDED a 1']);
    const before = counts.readLog;
    const again = new EventCollector(storage, '/pods', { resourceVersion: '1' });
    await storage.create('/pods/ns/b', obj('b'));
    expect((await again.waitFor(1)).map(show)).toEqual(['ADDED b 2']);
    expect(counts.readLog).toBeGreaterThan(before);
    await again.stop();
  });

  it.each([0, false])('serves every watch from the store with size %s', async (size) => {
    const { storage, counts } = setup(size);
    await storage.list('/pods');
    await storage.create('/pods/ns/a', obj('a'));
    const before = reads(counts);
    const w = new EventCollector(storage, '/pods', { resourceVersion: '0' });
    expect((await w.waitFor(1)).map(show)).toEqual(['ADDED a 1']);
    expect(reads(counts)).toBeGreaterThan(before);
    expect(storage.cachedWatchers).toBe(0);
    await w.stop();
  });

  it('refuses a malformed version as an uncached watch does', () => {
    const { storage } = setup();
    expect(() =>
      storage.watch('/pods', { resourceVersion: 'x', signal: new AbortController().signal }),
    ).toThrow('invalid resource version: "x"');
  });
});
