import { configMapView, namespaceFinalizeView, namespaceView, type Namespace } from '@keel/coreapi';
import { createMemoryStorage, type Storage } from '@keel/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GenericStore, type WriteContext } from '../../registry/generic-store.js';
import type { InternalObject } from '../../registry/resource-view.js';
import { NamespaceController } from './controller.js';
import { heldBySpecFinalizers, NamespaceStore } from './store.js';

const admin = { name: 'admin', uid: '', groups: ['system:masters'], extra: {} };
const ctx: WriteContext = { dryRun: false, user: admin, fieldManager: 'test' };

describe('NamespaceController', () => {
  let storage: Storage;
  let namespaces: NamespaceStore;
  let configmaps: GenericStore<InternalObject>;
  let controller: () => NamespaceController;

  beforeEach(() => {
    storage = createMemoryStorage();
    const common = { keyRoot: '/namespaces', holdsDeletion: heldBySpecFinalizers };
    namespaces = new NamespaceStore({ ...common, storage, view: namespaceView });
    configmaps = new GenericStore({ storage, view: configMapView, keyRoot: '/configmaps' });
    controller = () =>
      new NamespaceController({
        storage,
        finalize: new GenericStore<Namespace>({ ...common, storage, view: namespaceFinalizeView }),
        stores: () => [configmaps],
      });
  });
  afterEach(async () => {
    await storage.close();
  });

  const createNs = (name: string) => namespaces.create('', { metadata: { name } }, {}, ctx);
  const createCm = (ns: string, name: string, finalizers: string[] = []) =>
    configmaps.create(ns, { metadata: { name, ...(finalizers.length ? { finalizers } : {}) } }, {}, ctx);
  const cmNames = async (ns: string) =>
    (await storage.list<InternalObject>(`/configmaps/${ns}`)).items.map((c) => c.metadata.name);
  const stored = (name: string) => storage.get<Namespace>(`/namespaces/${name}`, { ignoreNotFound: true });

  it('leaves namespaces that are not being deleted alone', async () => {
    await createNs('live');
    await createCm('live', 'c');
    expect(await controller().sync('live')).toBe('done');
    expect(await controller().sync('missing')).toBe('done');
    expect(await cmNames('live')).toEqual(['c']);
    expect((await stored('live'))?.status?.conditions).toBeUndefined();
  });

  it('empties a deleted namespace, waits for held content, then finalizes it away', async () => {
    await createNs('doomed');
    await createCm('doomed', 'plain');
    await createCm('doomed', 'held', ['example.com/hold']);
    const { obj, pending } = await namespaces.delete('', 'doomed', { dryRun: false, user: admin });
    expect([pending, obj.status?.phase]).toEqual([true, 'Terminating']);

    expect(await controller().sync('doomed')).toBe('again');
    expect(await cmNames('doomed')).toEqual(['held']);
    const conditions = (await stored('doomed'))?.status?.conditions ?? [];
    expect(conditions.find((c) => c.type === 'NamespaceFinalizersRemaining')).toMatchObject({
      status: 'True',
      message:
        'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    });
    expect((await stored('doomed'))?.spec?.finalizers).toEqual(['kubernetes']);

    await configmaps.update(
      'doomed',
      'held',
      (current) => {
        const next = structuredClone(current as InternalObject);
        delete next.metadata.finalizers;
        return { obj: next, wire: {} };
      },
      ctx,
    );
    expect(await controller().sync('doomed')).toBe('done');
    expect(await stored('doomed')).toBeUndefined();
  });

  it('keeps a namespace another spec finalizer holds, Terminating and empty', async () => {
    await createNs('kept');
    await storage.guaranteedUpdate<Namespace>('/namespaces/kept', (ns) => {
      const next = structuredClone(ns as Namespace);
      next.spec = { finalizers: ['example.com/other', 'kubernetes'] };
      delete next.metadata.resourceVersion;
      return next;
    });
    await createCm('kept', 'c');
    await namespaces.delete('', 'kept', { dryRun: false, user: admin });
    expect(await controller().sync('kept')).toBe('done');
    expect(await cmNames('kept')).toEqual([]);
    expect(await stored('kept')).toMatchObject({
      spec: { finalizers: ['example.com/other'] },
      status: { phase: 'Terminating' },
    });
  });

  it('is safe to run on several servers at once', async () => {
    await createNs('shared');
    for (let i = 0; i < 10; i++) await createCm('shared', `c${i}`);
    await namespaces.delete('', 'shared', { dryRun: false, user: admin });
    const outcomes = await Promise.all([controller().sync('shared'), controller().sync('shared')]);
    expect(outcomes).toEqual(['done', 'done']);
    expect(await stored('shared')).toBeUndefined();
    expect(await cmNames('shared')).toEqual([]);
  });
});
