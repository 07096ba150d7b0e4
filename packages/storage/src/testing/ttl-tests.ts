import { describe, expect, it } from 'vitest';
import { expectCode } from './crud-tests.js';
import {
  describe as show,
  EventCollector,
  eventually,
  obj,
  sleep,
  type ConformanceStoreOptions,
  type Obj,
} from './helpers.js';
import type { Storage } from '../storage.js';

type Open = (opts?: Partial<ConformanceStoreOptions>) => Promise<Storage>;

export function ttlTests(open: Open): void {
  describe('ttl', () => {
    it('deletes an expired object and tells watchers with a DELETED event', async () => {
      const s = await open({ reaperIntervalMs: 50 });
      const sentinel = await s.create('/things/sentinel', obj('sentinel'));
      // Watch from an explicit version: the events below must come as changes, not initial state.
      const w = new EventCollector(s, '/things', { resourceVersion: sentinel.metadata.resourceVersion! });
      await s.create('/things/short', obj('short'), { ttlSeconds: 0.3 });
      await s.create('/things/long', obj('long'), { ttlSeconds: 3600 });
      await s.create('/things/forever', obj('forever'));
      const events = await w.waitFor(4, 5_000);
      expect(events.map(show)).toEqual([
        'ADDED short 2',
        'ADDED long 3',
        'ADDED forever 4',
        'DELETED short 5',
      ]);
      const deleted = events[3];
      expect(deleted?.type === 'DELETED' && deleted.object).toEqual({
        metadata: { name: 'short', resourceVersion: '5' },
        spec: {},
      });
      await expectCode(s.get('/things/short'), 'KeyNotFound');
      expect((await s.list<Obj>('/things')).items.map((o) => o.metadata.name)).toEqual([
        'forever',
        'long',
        'sentinel',
      ]);
      await w.stop();
    });

    it('restarts the TTL on an update that sets one, and drops it on one that does not', async () => {
      const s = await open({ reaperIntervalMs: 50 });
      await s.create('/things/a', obj('a'), { ttlSeconds: 0.4 });
      await s.create('/things/b', obj('b'), { ttlSeconds: 0.4 });
      await s.guaranteedUpdate<Obj>('/things/a', (o) => ({ ...o!, spec: { n: 1 } }), {
        ttlSeconds: () => 3600,
      });
      await s.guaranteedUpdate<Obj>('/things/b', (o) => ({ ...o!, spec: { n: 1 } }));
      await s.create('/things/c', obj('c'), { ttlSeconds: 0.2 });
      await eventually(() => expectCode(s.get('/things/c'), 'KeyNotFound'), 5_000);
      await sleep(400);
      expect((await s.list<Obj>('/things')).items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    });

    it('an update that changes nothing writes nothing, even with a TTL (no new version, no event)', async () => {
      const s = await open();
      const a = await s.create('/things/a', obj('a'), { ttlSeconds: 3600 });
      const w = new EventCollector(s, '/things', { resourceVersion: a.metadata.resourceVersion! });
      const u = await s.guaranteedUpdate<Obj>('/things/a', (o) => o!, { ttlSeconds: 3600 });
      expect(u.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
      expect(await s.currentResourceVersion('/things')).toBe(a.metadata.resourceVersion);
      await s.create('/things/b', obj('b'));
      expect((await w.waitFor(1, 5_000)).map(show)).toEqual([
        `ADDED b ${Number(a.metadata.resourceVersion) + 1}`,
      ]);
      await w.stop();
    });

    it.each([0, -1, Number.NaN])('rejects a ttl of %s seconds with InvalidObject', async (ttlSeconds) => {
      const s = await open();
      await expectCode(s.create('/things/a', obj('a'), { ttlSeconds }), 'InvalidObject');
    });
  });
}
