import { discardLogger } from '@keel/log';
import { createMemoryStorage } from '@keel/storage';
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
