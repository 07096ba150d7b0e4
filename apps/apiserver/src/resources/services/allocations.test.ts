import { describe, expect, it } from 'vitest';
import { StatusError } from '@keel/apimachinery';
import { defaultService, type Service, type ServiceSpec } from '@keel/coreapi';
import { createMemoryStorage, type Storage } from '@keel/storage';
import { ServiceAllocator } from './allocations.js';
import { serviceRanges, type ServiceRanges } from './ranges.js';
import { AllocationRepair, LEAK_ROUNDS } from './repair.js';

function svc(name: string, spec: ServiceSpec): Service {
  const s: Service = { metadata: { name, namespace: 'ns' }, spec };
  defaultService(s);
  return s;
}

function setup(ranges: readonly string[], ports = { base: 30000, size: 10 }) {
  const storage: Storage = createMemoryStorage();
  const r: ServiceRanges = serviceRanges(storage, {
    serviceClusterIPRanges: ranges,
    serviceNodePortRange: ports,
  });
  return { storage, ranges: r, alloc: new ServiceAllocator(r) };
}

async function message(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StatusError) return err.status.message ?? '';
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('ServiceAllocator', () => {
  it('gives a PreferDualStack Service one IP of each configured family, primary first', async () => {
    const { alloc, storage } = setup(['10.0.0.0/28', 'fd00::/120']);
    const s = svc('dual', { ipFamilyPolicy: 'PreferDualStack', ports: [{ port: 80 }] });
    await (await alloc.beginCreate(s, false)).commit();
    expect(s.spec?.ipFamilies).toEqual(['IPv4', 'IPv6']);
    expect(s.spec?.clusterIPs?.[0]).toMatch(/^10\.0\.0\./);
    expect(s.spec?.clusterIPs?.[1]).toMatch(/^fd00::/);
    expect(s.spec?.clusterIP).toBe(s.spec?.clusterIPs?.[0]);
    await storage.close();
  });

  it('refuses RequireDualStack on a single-stack cluster and a family it lacks', async () => {
    const { alloc, storage } = setup(['10.0.0.0/28']);
    expect(
      await message(
        alloc.beginCreate(svc('a', { ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] }), false),
      ),
    ).toBe(
      `Service "a" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services`,
    );
    expect(
      await message(alloc.beginCreate(svc('b', { ipFamilies: ['IPv6'], ports: [{ port: 80 }] }), false)),
    ).toBe(
      'Service "b" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
    );
    await storage.close();
  });

  it('gives back what a reverted create took, and a dry run takes nothing', async () => {
    const { alloc, ranges, storage } = setup(['10.0.0.0/28']);
    const s = svc('np', { type: 'NodePort', ports: [{ port: 80 }] });
    const dry = await alloc.beginCreate(svc('dry', { type: 'NodePort', ports: [{ port: 80 }] }), true);
    await dry.commit();
    expect(await ranges.primary.taken()).toEqual([]);
    const txn = await alloc.beginCreate(s, false);
    expect(await ranges.primary.taken()).toEqual([s.spec?.clusterIP]);
    expect(await ranges.nodePorts.taken()).toEqual([s.spec?.ports?.[0]?.nodePort]);
    await txn.revert();
    expect(await ranges.primary.taken()).toEqual([]);
    expect(await ranges.nodePorts.taken()).toEqual([]);
    await storage.close();
  });

  it('frees node ports when a NodePort Service becomes ClusterIP, and the IP when it becomes ExternalName', async () => {
    const { alloc, ranges, storage } = setup(['10.0.0.0/28']);
    const old = svc('s', { type: 'NodePort', ports: [{ port: 80 }] });
    await (await alloc.beginCreate(old, false)).commit();
    const toClusterIP = structuredClone(old);
    toClusterIP.spec = {
      ...toClusterIP.spec,
      type: 'ClusterIP',
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
    };
    delete toClusterIP.spec.externalTrafficPolicy;
    await (await alloc.beginUpdate(toClusterIP, old, false)).commit();
    expect(await ranges.nodePorts.taken()).toEqual([]);
    expect(await ranges.primary.taken()).toEqual([old.spec?.clusterIP]);
    const toExternal: Service = {
      metadata: old.metadata,
      spec: { type: 'ExternalName', externalName: 'example.com' },
    };
    await (await alloc.beginUpdate(toExternal, toClusterIP, false)).commit();
    expect(await ranges.primary.taken()).toEqual([]);
    await storage.close();
  });
});

describe('AllocationRepair', () => {
  it('marks what stored Services hold and reclaims a leak on its third pass', async () => {
    const { ranges, storage } = setup(['10.0.0.0/28']);
    // A Service in the store the bitmap does not know (e.g. the range flags changed).
    await storage.create(
      '/services/ns/kept',
      svc('kept', { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ports: [{ port: 80 }] }),
    );
    // An address taken by a create that never stored its Service.
    await ranges.primary.allocate('10.0.0.9', false);
    const repair = new AllocationRepair(storage, ranges);
    for (let pass = 1; pass < LEAK_ROUNDS; pass++) {
      await repair.runOnce();
      expect(await ranges.primary.taken()).toEqual(['10.0.0.5', '10.0.0.9']);
    }
    await repair.runOnce();
    expect(await ranges.primary.taken()).toEqual(['10.0.0.5']);
    await storage.close();
  });
});
