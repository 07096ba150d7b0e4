import { discardLogger } from '@keel/log';
import { createMemoryStorage } from '@keel/storage';
import { eventually } from '@keel/testing';
import { describe, expect, it } from 'vitest';
import { ServerInformers } from './informers.js';

describe('ServerInformers', () => {
  it('keeps one informer per key root, reads by namespace and name, and syncs before it resolves', async () => {
    const storage = createMemoryStorage();
    await storage.create('/pods/ns/p', { metadata: { name: 'p', namespace: 'ns' } });
    await storage.create('/nodes/n1', { metadata: { name: 'n1' } });
    const informers = new ServerInformers(storage, discardLogger);
    expect(informers.informer('/pods')).toBe(informers.informer('/pods'));
    const pods = informers.lookup('/pods');
    const nodes = informers.lookup('/nodes');
    const ac = new AbortController();
    await informers.start(ac.signal);
    // Called again (a retried start-up step): the same informers, already synced.
    await informers.start(ac.signal);
    expect(pods.get('ns', 'p')?.metadata.name).toBe('p');
    expect(pods.get('other', 'p')).toBeUndefined();
    expect(nodes.get('', 'n1')?.metadata.name).toBe('n1');
    expect(() => informers.informer('/leases')).toThrow(
      'informer for /leases asked for after the informers started',
    );
    ac.abort();
    await storage.close();
  });

  it("shares a pod change's decoded object with the sharing watches, and decodes its own copy of other kinds", async () => {
    const storage = createMemoryStorage();
    const informers = new ServerInformers(storage, discardLogger);
    const pods = informers.lookup('/pods');
    const nodes = informers.lookup('/nodes');
    const ac = new AbortController();
    await informers.start(ac.signal);
    const seen = new Map<string, unknown>();
    const watch = (async () => {
      for await (const ev of storage.watch('/', { signal: ac.signal, sharedObjects: true })) {
        if (ev.type === 'ADDED') seen.set(ev.key, ev.object);
      }
    })();
    // The watch is live once it has seen a first change; the next ones reach it and the informers alike.
    await storage.create('/leases/warm', { metadata: { name: 'warm' } });
    await eventually(() => Promise.resolve(seen.size === 1), 5_000, 'the watch to go live');
    await storage.create('/pods/ns/p', { metadata: { name: 'p', namespace: 'ns' } });
    await storage.create('/nodes/n1', { metadata: { name: 'n1' } });
    await eventually(
      () => Promise.resolve(Boolean(pods.get('ns', 'p') && nodes.get('', 'n1')) && seen.size === 3),
      5_000,
      'the watch and the informers to see both changes',
    );
    expect(pods.get('ns', 'p')).toBe(seen.get('/pods/ns/p'));
    expect(nodes.get('', 'n1')).not.toBe(seen.get('/nodes/n1'));
    expect(nodes.get('', 'n1')).toEqual(seen.get('/nodes/n1'));
    ac.abort();
    await watch;
    await storage.close();
  });

  it('stops waiting when the server stops before the store answered', async () => {
    const storage = createMemoryStorage();
    const informers = new ServerInformers(storage, discardLogger);
    informers.informer('/pods');
    const ac = new AbortController();
    ac.abort();
    await expect(informers.start(ac.signal)).rejects.toThrow('stopped before the informers synced');
    await storage.close();
  });
});
