import { describe, expect, it } from 'vitest';
import type { Service } from '@keel/coreapi';
import { createMemoryStorage, type Storage } from '@keel/storage';
import { serviceRanges } from '../resources/services/ranges.js';
import { PLATFORM_SERVICE, PlatformServiceController } from './platform-service.js';

function controller(storage: Storage, advertiseAddress: string, errors: unknown[]) {
  return new PlatformServiceController(storage, {
    ranges: serviceRanges(storage, {
      serviceClusterIPRanges: ['10.0.0.0/24'],
      serviceNodePortRange: { base: 30000, size: 100 },
    }),
    namespace: 'default',
    securePort: 6443,
    nodePort: 0,
    advertiseAddress,
    reconciler: 'lease',
    onError: (err) => errors.push(err),
  });
}

describe('PlatformServiceController', () => {
  it('lets several servers starting at once on one store agree on one Service, without errors', async () => {
    for (let round = 0; round < 20; round++) {
      const storage = createMemoryStorage();
      const errors: unknown[] = [];
      const servers = ['10.1.0.1', '10.1.0.2', '10.1.0.3'].map((ip) => controller(storage, ip, errors));
      const abort = new AbortController();
      await Promise.all(servers.map((s) => s.start(abort.signal)));
      abort.abort();
      await Promise.all(servers.map((s) => s.stop()));
      expect(errors).toEqual([]);
      const list = await storage.list<Service>('/services/default');
      expect(list.items.map((s) => s.metadata.name)).toEqual([PLATFORM_SERVICE]);
      expect(list.items[0]?.spec?.clusterIP).toBe('10.0.0.1');
    }
  });

  it('reports a Service it cannot create and keeps the server up: a user Service holds the address', async () => {
    const storage = createMemoryStorage();
    const errors: unknown[] = [];
    // Reserve 10.0.0.1 as a user Service would, without the platform Service existing.
    await serviceRanges(storage, {
      serviceClusterIPRanges: ['10.0.0.0/24'],
      serviceNodePortRange: { base: 30000, size: 100 },
    }).primary.allocate('10.0.0.1', false);
    await storage.create('/services/default/user', {
      metadata: { name: 'user', namespace: 'default' },
      spec: { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'] },
    });
    const abort = new AbortController();
    await controller(storage, '10.1.0.2', errors).start(abort.signal);
    abort.abort();
    expect(String(errors[0])).toMatch(/provided IP is already allocated/);
    expect(await storage.get('/services/default/platform', { ignoreNotFound: true })).toBeFalsy();
  });
});
