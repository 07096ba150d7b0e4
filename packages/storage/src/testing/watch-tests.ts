import { describe as group, expect, it } from 'vitest';
import { expectCode } from './crud-tests.js';
import {
  describe,
  EventCollector,
  eventually,
  obj,
  sleep,
  type ConformanceStoreOptions,
  type Obj,
} from './helpers.js';
import type { Storage, WatchEvent, WatchSink } from '../storage.js';

type Open = (opts?: Partial<ConformanceStoreOptions>) => Promise<Storage>;

export function watchTests(open: Open): void {
  group('watch', () => {
    it('from a resourceVersion delivers only the changes after it, in order', async () => {
      const s = await open();
      await s.create('/things/a', obj('a'));
      const from = await s.currentResourceVersion('/things');
      await s.create('/things/b', obj('b'));
      const w = new EventCollector(s, '/things', { resourceVersion: from });
      await s.guaranteedUpdate<Obj>('/things/a', (o) => ({ ...o!, spec: { n: 1 } }));
      await s.delete('/things/b');
      await s.create('/other/x', obj('x'));
      await s.create('/thingsmore/y', obj('y'));
      const rv = Number(from);
      expect((await w.waitFor(3)).map(describe)).toEqual([
        `ADDED b ${rv + 1}`,
        `MODIFIED a ${rv + 2}`,
        `DELETED b ${rv + 3}`,
      ]);
      const deleted = w.events[2];
      expect(deleted?.type === 'DELETED' && deleted.object.metadata.resourceVersion).toBe(String(rv + 3));
      await sleep(100);
      expect(w.events).toHaveLength(3);
      await w.stop();
    });

    it.each([undefined, '0'])(
      'with resourceVersion %s starts with ADDED for the current state',
      async (resourceVersion) => {
        const s = await open();
        await s.create('/things/b', obj('b'));
        await s.create('/things/a', obj('a'));
        await s.create('/other/c', obj('c'));
        // 3 when the store has one sequence, 2 when each root has its own (a sharded store).
        const current = Number(await s.currentResourceVersion('/things'));
        const w = new EventCollector(s, '/things', {
          ...(resourceVersion ? { resourceVersion } : {}),
          bookmarks: true,
        });
        const initial = await w.waitFor(3);
        expect(initial.map(describe)).toEqual(['ADDED a 2', 'ADDED b 1', `BOOKMARK ${current}`]);
        expect(initial[2]).toMatchObject({ type: 'BOOKMARK', initialEventsEnd: true });
        await s.create('/things/c', obj('c'));
        expect(describe((await w.waitFor(4))[3]!)).toBe(`ADDED c ${current + 1}`);
        await w.stop();
      },
    );

    it('watches a single key when not recursive', async () => {
      const s = await open();
      const w = new EventCollector(s, '/things/a', {
        recursive: false,
        resourceVersion: await s.currentResourceVersion('/things'),
      });
      await s.create('/things/ab', obj('ab'));
      await s.create('/things/a', obj('a'));
      expect((await w.waitFor(1)).map(describe)).toEqual(['ADDED a 2']);
      await w.stop();
    });

    it('reports objects entering and leaving the predicate as ADDED and DELETED', async () => {
      const s = await open();
      const a = await s.create('/things/a', obj('a', { color: 'red' }));
      const w = new EventCollector(s, '/things', {
        resourceVersion: a.metadata.resourceVersion!,
        predicate: (o) => o.spec?.color === 'blue',
      });
      await s.create('/things/b', obj('b', { color: 'blue' }));
      await s.guaranteedUpdate<Obj>('/things/a', (o) => ({ ...o!, spec: { color: 'blue' } }));
      await s.guaranteedUpdate<Obj>('/things/a', (o) => ({ ...o!, spec: { color: 'blue', n: 1 } }));
      await s.guaranteedUpdate<Obj>('/things/b', (o) => ({ ...o!, spec: { color: 'green' } }));
      await s.delete('/things/a');
      const events = await w.waitFor(5);
      expect(events.map(describe)).toEqual([
        'ADDED b 2',
        'ADDED a 3',
        'MODIFIED a 4',
        'DELETED b 5',
        'DELETED a 6',
      ]);
      const left = events[3];
      expect(left?.type === 'DELETED' && left.object.spec).toEqual({ color: 'blue' });
      await w.stop();
    });

    it('fails with an Expired ERROR event for a compacted resourceVersion', async () => {
      const s = await open({ compactionIntervalMs: 100 });
      await s.create('/things/a', obj('a'));
      const old = await s.currentResourceVersion('/things');
      await s.create('/things/b', obj('b'));
      await s.create('/things/c', obj('c'));
      await eventually(() =>
        expectCode(s.list('/things', { resourceVersion: old, match: 'Exact' }), 'Expired'),
      );
      const w = new EventCollector(s, '/things', { resourceVersion: old });
      await w.done;
      expect(w.events.map(describe)).toEqual(['ERROR Expired']);
      const err = w.events[0];
      expect(err?.type === 'ERROR' && err.error.message).toMatch(
        new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`),
      );
    });

    it('delivers one write to 100 concurrent watchers', async () => {
      const s = await open();
      const from = await s.currentResourceVersion('/things');
      const watchers = Array.from(
        { length: 100 },
        () => new EventCollector(s, '/things', { resourceVersion: from }),
      );
      await s.create('/things/a', obj('a'));
      const got = await Promise.all(watchers.map((w) => w.waitFor(1)));
      expect(got.map((evs) => evs.map(describe).join())).toEqual(Array(100).fill('ADDED a 1'));
      await Promise.all(watchers.map((w) => w.stop()));
    });

    it('ends the iteration when the signal aborts, and on close', async () => {
      const s = await open();
      const w = new EventCollector(s, '/things');
      await s.create('/things/a', obj('a'));
      await w.waitFor(1);
      await w.stop();
      const w2 = new EventCollector(s, '/things');
      await s.create('/things/b', obj('b'));
      await w2.waitFor(2);
      await s.close();
      await w2.done;
      expect(w2.events.map(describe)).toEqual(['ADDED a 1', 'ADDED b 2']);
    });

    it('closes a watcher that falls too far behind with a Timeout ERROR', async () => {
      const s = await open({ watchBufferSize: 5 });
      await s.create('/things/0', obj('0'));
      const controller = new AbortController();
      const stream = s.watch<Obj>('/things', { resourceVersion: '1', signal: controller.signal });
      const it = stream[Symbol.asyncIterator]();
      const first = it.next();
      await s.create('/things/1', obj('1'));
      expect(describe((await first).value as never)).toBe('ADDED 1 2');
      // Let the watch go live (waiting for its next event) before the burst nobody reads.
      const second = it.next();
      await sleep(50);
      for (let i = 2; i <= 20; i++) await s.create(`/things/${i}`, obj(String(i)));
      expect(describe((await second).value as never)).toBe('ADDED 2 3');
      const rest: string[] = [];
      for (let r = await it.next(); !r.done; r = await it.next()) rest.push(describe(r.value));
      expect(rest).toEqual(['ERROR Timeout']);
      controller.abort();
    });

    it('hands live events to a sink as they come, after the replay the iterator yields', async () => {
      const s = await open({ bookmarkIntervalMs: 100 });
      await s.create('/things/x/a', obj('a'));
      await s.create('/things/x/b', obj('b'));
      const taken: string[] = [];
      const sink: WatchSink<Obj> = {
        put: (ev) => (taken.push(describe(ev)), true),
        ready: () => Promise.resolve(),
      };
      const controller = new AbortController();
      const stream = s.watch<Obj>('/things/x', { bookmarks: true, signal: controller.signal, sink });
      const replayed: string[] = [];
      const done = (async () => {
        for await (const ev of stream) replayed.push(describe(ev));
      })();
      await eventually(() => Promise.resolve(expect(replayed).toHaveLength(3)));
      const at = Number(await s.currentResourceVersion('/things'));
      await s.guaranteedUpdate<Obj>('/things/x/a', (o) => ({ ...o!, spec: { n: 1 } }));
      await s.delete('/things/x/b');
      // A write the watch does not see (same resource) still moves its periodic bookmark.
      await s.create('/things/y/c', obj('c'));
      await eventually(() => Promise.resolve(expect(taken.slice(0, 2)).toHaveLength(2)));
      expect(replayed.map((e) => e.replace(/ \d+$/, ''))).toEqual(['ADDED a', 'ADDED b', 'BOOKMARK']);
      expect(taken.slice(0, 2)).toEqual([`MODIFIED a ${at + 1}`, `DELETED b ${at + 2}`]);
      // Periodic bookmarks are live events too.
      await eventually(() => Promise.resolve(expect(taken.some((e) => e.startsWith('BOOKMARK'))).toBe(true)));
      controller.abort();
      await done;
      expect(replayed).toHaveLength(3);
    });

    it('keeps the events of a paused sink in the watch buffer, and ends it with Timeout past it', async () => {
      const s = await open({ watchBufferSize: 5 });
      await s.create('/things/0', obj('0'));
      const taken: WatchEvent<Obj>[] = [];
      let accepting = true;
      let wake: (() => void) | undefined;
      const sink: WatchSink<Obj> = {
        put: (ev) => (taken.push(ev), accepting),
        ready: () => new Promise<void>((r) => (wake = r)),
      };
      const controller = new AbortController();
      const stream = s.watch<Obj>('/things', { resourceVersion: '1', signal: controller.signal, sink });
      const replayed: string[] = [];
      const done = (async () => {
        for await (const ev of stream) replayed.push(describe(ev));
      })();
      // The first change may come as replay (before the watch is live) or to the sink.
      await s.create('/things/1', obj('1'));
      await eventually(() =>
        Promise.resolve(expect([...replayed, ...taken.map(describe)]).toEqual(['ADDED 1 2'])),
      );
      await sleep(100);
      taken.length = 0;
      await s.create('/things/2a', obj('2a'));
      await eventually(() => Promise.resolve(expect(taken.map(describe)).toEqual(['ADDED 2a 3'])));
      // Full: the next events wait (at most 5), then the watch gives up on this consumer.
      accepting = false;
      await s.create('/things/2', obj('2'));
      await eventually(() => Promise.resolve(expect(taken).toHaveLength(2)));
      for (let i = 3; i <= 5; i++) await s.create(`/things/${i}`, obj(String(i)));
      await sleep(100);
      expect(taken).toHaveLength(2);
      accepting = true;
      wake?.();
      await eventually(() =>
        Promise.resolve(
          expect(taken.map(describe).slice(2)).toEqual(['ADDED 3 5', 'ADDED 4 6', 'ADDED 5 7']),
        ),
      );
      accepting = false;
      await s.create('/things/6', obj('6'));
      await eventually(() => Promise.resolve(expect(taken).toHaveLength(6)));
      for (let i = 7; i <= 20; i++) await s.create(`/things/${i}`, obj(String(i)));
      await sleep(300);
      expect(taken).toHaveLength(6);
      accepting = true;
      wake?.();
      await done;
      expect(taken.slice(6).map(describe)).toEqual(['ERROR Timeout']);
      controller.abort();
    });

    it('sends periodic bookmarks when asked', async () => {
      const s = await open({ bookmarkIntervalMs: 100 });
      await s.create('/things/x/a', obj('a'));
      const w = new EventCollector(s, '/things/x', { resourceVersion: '1', bookmarks: true });
      // A write the watch does not see (same resource, other namespace) still moves its bookmark.
      await s.create('/things/y/b', obj('b'));
      await eventually(() => Promise.resolve(expect(w.events.map(describe)).toContain('BOOKMARK 2')), 3_000);
      await w.stop();
    });
  });
}
