import { describe, expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import { expectCode } from './crud-tests.js';
import { eventually, obj, type ConformanceStoreOptions, type Obj } from './helpers.js';
import type { ListOptions, ListResult, Storage } from '../storage.js';

type Open = (opts?: Partial<ConformanceStoreOptions>) => Promise<Storage>;

const names = (r: ListResult<Obj>): string[] => r.items.map((o) => o.metadata.name);

async function seed(s: Storage, n: number): Promise<void> {
  for (let i = 0; i < n; i++)
    await s.create(`/things/${String(i).padStart(2, '0')}`, obj(String(i).padStart(2, '0'), { n: i }));
}

/** Reads every page; returns the pages so tests can inspect each one. */
async function allPages(
  s: Storage,
  opts: ListOptions<Obj>,
  between?: (page: number) => Promise<unknown>,
): Promise<ListResult<Obj>[]> {
  const pages: ListResult<Obj>[] = [];
  let continueKey: string | undefined;
  do {
    const page = await s.list<Obj>('/things', { ...opts, ...(continueKey ? { continueKey } : {}) });
    pages.push(page);
    continueKey = page.continueKey;
    if (continueKey && between) await between(pages.length);
  } while (continueKey && pages.length < 100);
  return pages;
}

export function listTests(open: Open): void {
  describe('list', () => {
    it('returns the objects under the prefix in key order, at the current revision', async () => {
      const s = await open();
      await s.create('/things/b', obj('b'));
      await s.create('/things/a', obj('a'));
      await s.create('/thingsextra/c', obj('c'));
      await s.create('/other/d', obj('d'));
      const r = await s.list<Obj>('/things');
      expect(names(r)).toEqual(['a', 'b']);
      expect(r.resourceVersion).toBe(await s.currentResourceVersion('/things'));
      expect(r.continueKey).toBeUndefined();
      expect(r.remainingItemCount).toBeUndefined();
      expect(names(await s.list<Obj>('/things/a', { recursive: false }))).toEqual(['a']);
      expect(names(await s.list<Obj>('/things/zz', { recursive: false }))).toEqual([]);
    });

    it("pages with limit/continue at the first page's revision while the store changes", async () => {
      const s = await open();
      await seed(s, 10);
      const first = await s.list<Obj>('/things', { limit: 3 });
      const snapshot = first.resourceVersion;
      const mutations: Record<number, () => Promise<unknown>> = {
        1: async () => {
          await s.delete('/things/05'); // not yet returned: must still appear
          await s.create('/things/04a', obj('04a')); // created after the snapshot: must not appear
        },
        2: async () => {
          await s.guaranteedUpdate<Obj>('/things/07', (o) => ({ ...o!, spec: { n: 700 } })); // old state must appear
          await s.delete('/things/00'); // already returned
          await s.create('/things/99', obj('99'));
        },
      };
      await mutations[1]!();
      const rest = await allPages(
        s,
        { limit: 3, continueKey: first.continueKey! },
        (p) => mutations[p + 1]?.() ?? Promise.resolve(),
      );
      const pages = [first, ...rest];
      expect(pages.map(names)).toEqual([['00', '01', '02'], ['03', '04', '05'], ['06', '07', '08'], ['09']]);
      expect(pages.every((p) => p.resourceVersion === snapshot)).toBe(true);
      expect(pages.map((p) => p.remainingItemCount)).toEqual([7, 4, 1, undefined]);
      expect(pages[2]!.items[1]!.spec).toEqual({ n: 7 });
      expect(Number(pages[2]!.items[1]!.metadata.resourceVersion)).toBeLessThanOrEqual(Number(snapshot));
      expect(names(await s.list<Obj>('/things'))).toEqual([
        '01',
        '02',
        '03',
        '04',
        '04a',
        '06',
        '07',
        '08',
        '09',
        '99',
      ]);
    });

    it('returns fewer items per page with a predicate, without repeats or gaps', async () => {
      const s = await open();
      await seed(s, 20);
      const even = (o: Obj): boolean => (o.spec?.n ?? 0) % 2 === 0;
      const pages = await allPages(s, { limit: 3, predicate: even });
      expect(pages.flatMap(names)).toEqual(['00', '02', '04', '06', '08', '10', '12', '14', '16', '18']);
      expect(pages.every((p) => p.remainingItemCount === undefined)).toBe(true);
      expect(pages.every((p) => p.items.length <= 3)).toBe(true);
      const none = await s.list<Obj>('/things', { limit: 2, predicate: () => false });
      expect(none.items).toEqual([]);
    });

    it("makes items with the caller's decode, given each key, its version and the default parse", async () => {
      const s = await open();
      await seed(s, 5);
      await s.guaranteedUpdate<Obj>('/things/03', (o) => ({ ...(o as Obj), spec: { n: 33 } }));
      const plain = await s.list<Obj>('/things');
      const seen: string[] = [];
      const r = await s.list<{ id: string }>('/things', {
        limit: 4,
        decode: (key, rv, parse) => {
          seen.push(key);
          const o = parse() as Obj;
          expect(o.metadata.resourceVersion).toBe(rv);
          return { id: `${key}@${rv}:${String(o.spec?.n)}` };
        },
        predicate: (item) => !item.id.endsWith(':1'),
      });
      expect(r.items.map((i) => i.id)).toEqual(
        plain.items
          .filter((o) => o.spec?.n !== 1)
          .slice(0, 4)
          .map(
            (o) => `/things/${o.metadata.name}@${String(o.metadata.resourceVersion)}:${String(o.spec?.n)}`,
          ),
      );
      expect(seen.slice(0, 5)).toEqual([
        '/things/00',
        '/things/01',
        '/things/02',
        '/things/03',
        '/things/04',
      ]);
    });

    it('serves an Exact resourceVersion from history', async () => {
      const s = await open();
      await seed(s, 3);
      const before = await s.currentResourceVersion('/things');
      await s.delete('/things/00');
      await s.guaranteedUpdate<Obj>('/things/01', (o) => ({ ...o!, spec: { n: 100 } }));
      await s.create('/things/03', obj('03'));
      const old = await s.list<Obj>('/things', { resourceVersion: before, match: 'Exact' });
      expect(names(old)).toEqual(['00', '01', '02']);
      expect(old.items[1]!.spec).toEqual({ n: 1 });
      expect(old.resourceVersion).toBe(before);
      // Legacy rule: an RV with a limit and no match is Exact.
      expect(names(await s.list<Obj>('/things', { resourceVersion: before, limit: 10 }))).toEqual([
        '00',
        '01',
        '02',
      ]);
      const notOlder = await s.list<Obj>('/things', { resourceVersion: before, match: 'NotOlderThan' });
      expect(names(notOlder)).toEqual(['01', '02', '03']);
      expect(notOlder.resourceVersion).toBe(await s.currentResourceVersion('/things'));
      expect(names(await s.list<Obj>('/things', { resourceVersion: '0' }))).toEqual(['01', '02', '03']);
    });

    it.each(['NotOlderThan', 'Exact'] as const)(
      'fails a %s list ahead of the store with TooLargeResourceVersion',
      async (match) => {
        const s = await open({ resourceVersionWaitMs: 200 });
        await seed(s, 1);
        const future = String(Number(await s.currentResourceVersion('/things')) + 5);
        const started = Date.now();
        await expectCode(s.list('/things', { resourceVersion: future, match }), 'TooLargeResourceVersion');
        expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      },
    );

    it('waits for a NotOlderThan revision the store reaches soon', async () => {
      const s = await open({ resourceVersionWaitMs: 3_000 });
      await seed(s, 1);
      const next = String(Number(await s.currentResourceVersion('/things')) + 1);
      const listed = s.list<Obj>('/things', { resourceVersion: next, match: 'NotOlderThan' });
      setTimeout(() => void s.create('/things/late', obj('late')), 100);
      expect(names(await listed)).toEqual(['00', 'late']);
    });

    it('fails with Expired for a compacted revision and a compacted continue token', async () => {
      const s = await open({ compactionIntervalMs: 100 });
      await seed(s, 4);
      const old = await s.list<Obj>('/things', { limit: 2 });
      await s.create('/things/zz', obj('zz'));
      await s.create('/things/zzz', obj('zzz'));
      await eventually(
        () =>
          expectCode(s.list('/things', { resourceVersion: old.resourceVersion, match: 'Exact' }), 'Expired'),
        5_000,
      );
      const err: unknown = await s
        .list('/things', { continueKey: old.continueKey! })
        .catch((e: unknown) => e);
      expect(isStorageError(err, 'Expired')).toBe(true);
      // The error carries a token that continues at the latest revision.
      const fresh = isStorageError(err) ? err.continueKey : undefined;
      expect(fresh).toBeDefined();
      expect(names(await s.list<Obj>('/things', { continueKey: fresh! }))).toEqual(['02', '03', 'zz', 'zzz']);
    });

    it.each([
      'garbage!',
      Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString('base64url'),
      Buffer.from('{"v":"x"}').toString('base64url'),
    ])('rejects the continue token %s with InvalidContinue', async (token) => {
      const s = await open();
      await expectCode(s.list('/things', { continueKey: token }), 'InvalidContinue');
    });

    it('rejects a non-numeric resourceVersion with InvalidObject', async () => {
      const s = await open();
      await expectCode(s.list('/things', { resourceVersion: 'abc' }), 'InvalidObject');
    });
  });
}
