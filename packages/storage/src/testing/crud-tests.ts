import { describe, expect, it } from 'vitest';
import { isStorageError, type StorageErrorCode } from '../errors.js';
import { obj, rvOf, type Obj } from './helpers.js';
import type { Storage } from '../storage.js';
import type { ConformanceStoreOptions } from './helpers.js';

type Open = (opts?: Partial<ConformanceStoreOptions>) => Promise<Storage>;

export async function expectCode(p: Promise<unknown>, code: StorageErrorCode): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isStorageError(err) ? err.code : err).toBe(code);
}

export function crudTests(open: Open): void {
  describe('create and get', () => {
    it('stores a copy and returns it with a decimal resourceVersion', async () => {
      const s = await open();
      const input = obj('a', { n: 1 });
      const created = await s.create('/things/a', input);
      expect(created.metadata.resourceVersion).toMatch(/^[1-9]\d*$/);
      expect(input.metadata.resourceVersion).toBeUndefined();
      created.spec!.n = 99;
      const got = await s.get<Obj>('/things/a');
      expect(got).toEqual({
        metadata: { name: 'a', resourceVersion: created.metadata.resourceVersion },
        spec: { n: 1 },
      });
      expect(await s.currentResourceVersion('/things')).toBe(created.metadata.resourceVersion);
    });

    it('fails with KeyExists when the key is present, and KeyNotFound when absent', async () => {
      const s = await open();
      await s.create('/things/a', obj('a'));
      await expectCode(s.create('/things/a', obj('a')), 'KeyExists');
      await expectCode(s.get('/things/missing'), 'KeyNotFound');
      expect(await s.get('/things/missing', { ignoreNotFound: true })).toBeUndefined();
    });

    it.each([
      ['a resourceVersion on create', { metadata: { name: 'x', resourceVersion: '5' } }],
      ['an array', []],
      ['a non-object metadata', { metadata: 'x' }],
      ['a value JSON cannot encode', { metadata: { name: 'x' }, n: 10n }],
    ])('rejects %s with InvalidObject', async (_what, bad) => {
      const s = await open();
      await expectCode(s.create('/things/x', bad), 'InvalidObject');
      expect(await s.currentResourceVersion('/things')).toBe('0');
    });

    it('increases the resourceVersion with every write', async () => {
      const s = await open();
      const a = await s.create('/things/a', obj('a'));
      const b = await s.create('/things/b', obj('b'));
      const a2 = await s.guaranteedUpdate<Obj>('/things/a', (o) => ({ ...o!, spec: { n: 2 } }));
      const del = await s.currentResourceVersion('/things');
      await s.delete('/things/b');
      const after = await s.currentResourceVersion('/things');
      expect([rvOf(a), rvOf(b), rvOf(a2), Number(del), Number(after)]).toEqual(
        [1, 2, 3, 3, 4].map((n) => n + rvOf(a) - 1),
      );
    });
  });

  describe('guaranteedUpdate', () => {
    it('writes the result of tryUpdate with a new resourceVersion', async () => {
      const s = await open();
      const a = await s.create('/things/a', obj('a', { n: 1 }));
      const seen: (Obj | undefined)[] = [];
      const u = await s.guaranteedUpdate<Obj>('/things/a', (cur) => {
        seen.push(cur);
        return { ...cur!, spec: { n: 2 } };
      });
      expect(seen.map((o) => o?.metadata.resourceVersion)).toEqual([a.metadata.resourceVersion]);
      expect(rvOf(u)).toBeGreaterThan(rvOf(a));
      expect((await s.get<Obj>('/things/a')).spec).toEqual({ n: 2 });
    });

    it.each([
      ['a stale resourceVersion', (rv: string) => ({ resourceVersion: String(Number(rv) - 1) })],
      ['another uid', () => ({ uid: 'other' })],
    ])('fails with Conflict on %s in the precondition', async (_what, pre) => {
      const s = await open();
      await s.create('/things/z', obj('z'));
      const a = await s.create('/things/a', obj('a', {}, 'uid-1'));
      await expectCode(
        s.guaranteedUpdate<Obj>('/things/a', (o) => ({ ...o!, spec: { n: 5 } }), {
          precondition: pre(a.metadata.resourceVersion!),
        }),
        'Conflict',
      );
      expect(await s.get('/things/a')).toEqual(a);
    });

    it('accepts matching preconditions', async () => {
      const s = await open();
      const a = await s.create('/things/a', obj('a', {}, 'uid-1'));
      const pre = { uid: 'uid-1', resourceVersion: a.metadata.resourceVersion! };
      const u = await s.guaranteedUpdate<Obj>('/things/a', (o) => ({ ...o!, spec: { n: 5 } }), {
        precondition: pre,
      });
      expect(u.spec).toEqual({ n: 5 });
    });

    it('fails with KeyNotFound on a missing key unless ignoreNotFound, which creates it', async () => {
      const s = await open();
      await expectCode(
        s.guaranteedUpdate('/things/a', () => obj('a')),
        'KeyNotFound',
      );
      const created = await s.guaranteedUpdate<Obj>('/things/a', (cur) => (cur ? cur : obj('a', { n: 7 })), {
        ignoreNotFound: true,
      });
      expect((await s.get<Obj>('/things/a')).spec).toEqual({ n: 7 });
      expect(created.metadata.resourceVersion).toBe(await s.currentResourceVersion('/things'));
    });

    it('does not write an unchanged object', async () => {
      const s = await open();
      const a = await s.create('/things/a', obj('a'));
      const u = await s.guaranteedUpdate<Obj>('/things/a', (o) => o!);
      expect(u.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
      expect(await s.currentResourceVersion('/things')).toBe(a.metadata.resourceVersion);
    });

    it('aborts when tryUpdate throws', async () => {
      const s = await open();
      await s.create('/things/a', obj('a'));
      await expect(
        s.guaranteedUpdate('/things/a', () => {
          throw new Error('no thanks');
        }),
      ).rejects.toThrow('no thanks');
    });

    it('loses no update when many run in parallel', async () => {
      const s = await open();
      await s.create('/things/counter', obj('counter', { n: 0 }));
      const n = 25;
      const results = await Promise.all(
        Array.from({ length: n }, () =>
          s.guaranteedUpdate<Obj>('/things/counter', async (o) => {
            await new Promise((r) => setImmediate(r));
            return { ...o!, spec: { n: (o!.spec?.n ?? 0) + 1 } };
          }),
        ),
      );
      expect((await s.get<Obj>('/things/counter')).spec).toEqual({ n });
      expect(new Set(results.map((r) => r.spec?.n)).size).toBe(n);
    });
  });

  describe('delete', () => {
    it('returns the last state and removes the key', async () => {
      const s = await open();
      const a = await s.create('/things/a', obj('a', { n: 1 }));
      expect(await s.delete('/things/a')).toEqual(a);
      await expectCode(s.get('/things/a'), 'KeyNotFound');
      await expectCode(s.delete('/things/a'), 'KeyNotFound');
    });

    it('lets validate refuse the delete with its own error, and sees the state it deletes', async () => {
      const s = await open();
      const a = await s.create('/things/a', obj('a', { n: 1 }));
      const held = new Error('held');
      await expect(
        s.delete<Obj>('/things/a', {
          validate: (current) => {
            expect(current).toEqual(a);
            throw held;
          },
        }),
      ).rejects.toBe(held);
      expect(await s.get('/things/a')).toEqual(a);
      const seen: Obj[] = [];
      expect(await s.delete<Obj>('/things/a', { validate: (current) => void seen.push(current) })).toEqual(a);
      expect(seen).toEqual([a]);
      await expectCode(s.get('/things/a'), 'KeyNotFound');
    });

    it.each([
      ['resourceVersion', (rv: string) => ({ resourceVersion: `${rv}0` }), 'Conflict'],
      ['uid', () => ({ uid: 'nope' }), 'Conflict'],
    ] as const)('checks the %s precondition', async (_what, pre, code) => {
      const s = await open();
      const a = await s.create('/things/a', obj('a', {}, 'u1'));
      await expectCode(s.delete('/things/a', { precondition: pre(a.metadata.resourceVersion!) }), code);
      expect(await s.get('/things/a')).toEqual(a);
      await s.delete('/things/a', {
        precondition: { uid: 'u1', resourceVersion: a.metadata.resourceVersion! },
      });
    });
  });

  describe('dryRun', () => {
    it('checks like a real write and persists nothing', async () => {
      const s = await open();
      const a = await s.create('/things/a', obj('a', { n: 1 }));
      const rv = await s.currentResourceVersion('/things');
      const dc = await s.create('/things/b', obj('b'), { dryRun: true });
      expect(dc.metadata.name).toBe('b');
      await expectCode(s.create('/things/a', obj('a'), { dryRun: true }), 'KeyExists');
      const du = await s.guaranteedUpdate<Obj>('/things/a', (o) => ({ ...o!, spec: { n: 2 } }), {
        dryRun: true,
      });
      expect(du.spec).toEqual({ n: 2 });
      expect(await s.delete('/things/a', { dryRun: true })).toEqual(a);
      await expectCode(s.delete('/things/a', { dryRun: true, precondition: { uid: 'x' } }), 'Conflict');
      expect(await s.currentResourceVersion('/things')).toBe(rv);
      expect(await s.get('/things/a')).toEqual(a);
      await expectCode(s.get('/things/b'), 'KeyNotFound');
    });
  });
}
