/**
 * The in-server serviceaccount and root-ca-cert-publisher controllers against real stores, two
 * API servers' worth of them on one store at once.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createMemoryStorage, createRedisStorage, type Storage } from '@keel/storage';
import { NamespaceDefaultsController } from './namespace-defaults.js';

type Obj = {
  metadata: { name?: string; uid?: string; resourceVersion?: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function storeFactory(kind: 'memory' | 'redis'): () => Promise<Storage> {
  const prefix = `/ns-defaults-test-${randomBytes(4).toString('hex')}`;
  let memory: Storage | undefined;
  return async () => {
    const storage =
      kind === 'memory'
        ? (memory ??= createMemoryStorage())
        : await createRedisStorage({ urls: [inject('redisUrl')], prefix });
    cleanups.push(() => storage.close());
    return storage;
  };
}

async function eventually(check: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return await check();
    } catch (err) {
      if (i > 200) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

const errors: unknown[] = [];

function start(storage: Storage, ca = 'CA-PEM', clusterWide?: boolean): Promise<void> {
  const ac = new AbortController();
  cleanups.push(async () => ac.abort());
  return new NamespaceDefaultsController(storage, {
    rootCA: () => ca,
    ...(clusterWide === undefined ? {} : { rootCAIsClusterWide: () => clusterWide }),
    onError: (err) => errors.push(err),
    retryDelayMs: 20,
  }).start(ac.signal);
}

const namespace = (name: string, more: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, uid: `uid-${name}` },
  status: { phase: 'Active' },
  ...more,
});

describe.each(['memory', 'redis'] as const)('namespace defaults (%s store)', (kind) => {
  it('gives every namespace, existing or new, its default ServiceAccount and kube-root-ca.crt; two servers agree', async () => {
    errors.length = 0;
    const stores = storeFactory(kind);
    const [a, b] = [await stores(), await stores()];
    await a.create('/namespaces/old', namespace('old'));
    await Promise.all([start(a), start(b)]);
    // Start resolves once the namespaces stored at start have theirs.
    expect((await a.get<Obj>('/serviceaccounts/old/default')).metadata.name).toBe('default');
    const cm = await a.get<Obj>('/configmaps/old/kube-root-ca.crt');
    expect(cm.data).toEqual({ 'ca.crt': 'CA-PEM' });
    expect(cm.metadata.annotations?.['kubernetes.io/description']).toMatch(/^Contains a CA bundle/);

    await b.create('/namespaces/new', namespace('new'));
    await eventually(async () => {
      expect((await a.get<Obj>('/serviceaccounts/new/default')).metadata.name).toBe('default');
      expect((await a.get<Obj>('/configmaps/new/kube-root-ca.crt')).data).toEqual({ 'ca.crt': 'CA-PEM' });
    });
    // AlreadyExists from the other server is no error.
    expect(errors).toEqual([]);
  });

  it('creates them again when deleted and puts the CA back when changed', async () => {
    const storage = await storeFactory(kind)();
    await storage.create('/namespaces/team', namespace('team'));
    await start(storage);
    const before = await storage.get<Obj>('/serviceaccounts/team/default');
    await storage.delete('/serviceaccounts/team/default');
    await storage.guaranteedUpdate<Obj>('/configmaps/team/kube-root-ca.crt', (cm) => ({
      ...(cm as Obj),
      data: { 'ca.crt': 'tampered', extra: 'x' },
    }));
    await eventually(async () => {
      const again = await storage.get<Obj>('/serviceaccounts/team/default');
      expect(again.metadata.uid).not.toBe(before.metadata.uid);
      expect((await storage.get<Obj>('/configmaps/team/kube-root-ca.crt')).data).toEqual({
        'ca.crt': 'CA-PEM',
      });
    });
  });

  it('servers with their own self-signed CAs fill a missing kube-root-ca.crt but never overwrite each other', async () => {
    const stores = storeFactory(kind);
    const [a, b] = [await stores(), await stores()];
    await a.create('/namespaces/shared', namespace('shared'));
    await start(a, 'CA-OF-A', false);
    await start(b, 'CA-OF-B', false);
    const first = await a.get<Obj>('/configmaps/shared/kube-root-ca.crt');
    expect(first.data).toEqual({ 'ca.crt': 'CA-OF-A' });
    await b.create('/namespaces/later', namespace('later'));
    await eventually(async () => {
      expect((await a.get<Obj>('/configmaps/later/kube-root-ca.crt')).data?.['ca.crt']).toMatch(
        /^CA-OF-[AB]$/,
      );
    });
    await new Promise((r) => setTimeout(r, 100));
    // Neither server rewrote what the other published.
    const after = await a.get<Obj>('/configmaps/shared/kube-root-ca.crt');
    expect(after.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  });

  it('leaves a namespace being deleted alone, and publishes no ConfigMap without a CA', async () => {
    const storage = await storeFactory(kind)();
    await storage.create('/namespaces/going', namespace('going', { status: { phase: 'Terminating' } }));
    await storage.create('/namespaces/plain', namespace('plain'));
    await start(storage, '');
    expect((await storage.get<Obj>('/serviceaccounts/plain/default')).metadata.name).toBe('default');
    expect((await storage.list('/configmaps')).items).toEqual([]);
    expect((await storage.list('/serviceaccounts/going')).items).toEqual([]);
  });
});
