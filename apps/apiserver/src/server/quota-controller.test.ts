import { discardLogger } from '@keel/log';
import { createMemoryStorage, type Storage } from '@keel/storage';
import { describe, expect, it } from 'vitest';
import { ServerInformers } from './informers.js';
import { ResourceQuotaController } from './quota-controller.js';

type Json = Record<string, unknown>;

const pod = (name: string, cpu: string, extra: Json = {}) => ({
  metadata: { name, namespace: 'ns' },
  spec: { containers: [{ name: 'app', resources: { requests: { cpu } } }] },
  ...extra,
});

async function statusOf(storage: Storage, name = 'q'): Promise<Json | undefined> {
  const q = await storage.get<{ status?: Json }>(`/resourcequotas/ns/${name}`);
  return q.status;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await read();
    if (ok(v) || i > 200) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function start(storage: Storage): Promise<AbortController> {
  const informers = new ServerInformers(storage, discardLogger);
  const controller = new ResourceQuotaController(storage, { informer: (k) => informers.informer(k) });
  const ac = new AbortController();
  await informers.start(ac.signal);
  controller.start(ac.signal);
  return ac;
}

describe('ResourceQuotaController', () => {
  it('sets hard from the spec and recalculates used from the objects, releasing deleted ones', async () => {
    const storage = createMemoryStorage();
    await storage.create('/pods/ns/a', pod('a', '100m'));
    await storage.create('/pods/ns/b', pod('b', '250m'));
    await storage.create('/pods/ns/done', pod('done', '1', { status: { phase: 'Succeeded' } }));
    await storage.create('/pods/other/c', { ...pod('c', '1'), metadata: { name: 'c', namespace: 'other' } });
    await storage.create('/configmaps/ns/cm', { metadata: { name: 'cm', namespace: 'ns' } });
    const hard = { pods: '10', 'requests.cpu': '2', 'count/pods': '10', configmaps: '5' };
    await storage.create('/resourcequotas/ns/q', {
      metadata: { name: 'q', namespace: 'ns' },
      spec: { hard },
    });
    const ac = await start(storage);
    const filled = await until(
      () => statusOf(storage),
      (s) => s?.['used'] !== undefined,
    );
    expect(filled).toEqual({
      hard,
      used: { pods: '2', 'requests.cpu': '350m', 'count/pods': '3', configmaps: '1' },
    });

    await storage.delete('/pods/ns/a');
    const released = await until(
      () => statusOf(storage),
      (s) => (s?.['used'] as Json)['pods'] === '1',
    );
    expect(released?.['used']).toEqual({
      pods: '1',
      'requests.cpu': '250m',
      'count/pods': '2',
      configmaps: '1',
    });

    // A spec change is followed; a quota whose status already matches is not written again.
    await storage.guaranteedUpdate<{ spec: Json }>('/resourcequotas/ns/q', (q) => ({
      ...(q as { spec: Json }),
      spec: { hard: { pods: '3' } },
    }));
    const changed = await until(
      () => statusOf(storage),
      (s) => (s?.['hard'] as Json)['pods'] === '3',
    );
    expect(changed).toEqual({ hard: { pods: '3' }, used: { pods: '1' } });
    const before = (await storage.get<{ metadata: { resourceVersion: string } }>('/resourcequotas/ns/q'))
      .metadata.resourceVersion;
    await new Promise((r) => setTimeout(r, 200));
    const after = (await storage.get<{ metadata: { resourceVersion: string } }>('/resourcequotas/ns/q'))
      .metadata.resourceVersion;
    expect(after).toBe(before);
    ac.abort();
    await storage.close();
  });

  it('counts only the pods a scoped quota takes', async () => {
    const storage = createMemoryStorage();
    await storage.create('/pods/ns/best', {
      metadata: { name: 'best', namespace: 'ns' },
      spec: { containers: [{ name: 'app' }] },
    });
    await storage.create('/pods/ns/burst', pod('burst', '100m'));
    await storage.create('/resourcequotas/ns/q', {
      metadata: { name: 'q', namespace: 'ns' },
      spec: { hard: { pods: '5' }, scopes: ['BestEffort'] },
    });
    const ac = await start(storage);
    const s = await until(
      () => statusOf(storage),
      (x) => x?.['used'] !== undefined,
    );
    expect(s?.['used']).toEqual({ pods: '1' });
    ac.abort();
    await storage.close();
  });
});
