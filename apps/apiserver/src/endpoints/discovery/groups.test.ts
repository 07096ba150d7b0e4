import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type RequestHandler } from 'express';
import { coreV1EventView, eventsV1View } from '@keel/events';
import { describe, expect, it } from 'vitest';
import { discoveryHandler } from './handler.js';
import { fromViews, type DiscoveryView } from './groups.js';

const CLIENT_GO = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

async function serve(handler: RequestHandler): Promise<{ base: string; server: Server }> {
  const app = express();
  app.use(handler);
  app.use((_req, res) => void res.status(418).type('text/plain').send('fell through'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('fromViews', () => {
  const pods: DiscoveryView = {
    group: '',
    version: 'v1',
    resource: 'pods',
    kind: 'Pod',
    singular: 'pod',
    namespaced: true,
    verbs: ['watch', 'get', 'list', 'create'],
    shortNames: ['po'],
    categories: ['all'],
    storageVersionHash: 'xPOwRZ+Yhw8=',
    subresources: [
      { name: 'status', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
      { name: 'binding', kind: 'Binding', verbs: ['create'] },
    ],
  };
  const nodes: DiscoveryView = {
    group: '',
    version: 'v1',
    resource: 'nodes',
    kind: 'Node',
    singular: 'node',
    namespaced: false,
    verbs: ['get'],
  };

  it('groups by group and version in order of appearance and sorts resources', () => {
    const leases: DiscoveryView = {
      group: 'coordination.k8s.io',
      version: 'v1',
      resource: 'leases',
      kind: 'Lease',
      singular: 'lease',
      namespaced: true,
      verbs: ['get'],
    };
    const groups = fromViews([eventsV1View, pods, leases, nodes, coreV1EventView]);
    expect(
      groups.map((g) => [g.group, g.versions.map((v) => [v.version, v.resources.map((r) => r.name)])]),
    ).toEqual([
      ['events.k8s.io', [['v1', ['events']]]],
      ['', [['v1', ['events', 'nodes', 'pods']]]],
      ['coordination.k8s.io', [['v1', ['leases']]]],
    ]);
  });

  it('drops every storageVersionHash when the StorageVersionHash gate is off', () => {
    const hashes = (features?: { storageVersionHash: boolean }) =>
      fromViews([pods, nodes], features).flatMap((g) =>
        g.versions.flatMap((v) => v.resources.map((r) => r.storageVersionHash)),
      );
    expect(hashes()).toEqual([undefined, 'xPOwRZ+Yhw8=']);
    expect(hashes({ storageVersionHash: true })).toEqual([undefined, 'xPOwRZ+Yhw8=']);
    expect(hashes({ storageVersionHash: false })).toEqual([undefined, undefined]);
  });

  it('rejects a resource served twice in one group version', () => {
    expect(() => fromViews([coreV1EventView, coreV1EventView])).toThrow(
      'discovery: events served twice in /v1',
    );
  });

  it('lists subresources as resource/sub entries and in aggregated discovery', async () => {
    const { base, server } = await serve(discoveryHandler(fromViews([pods, nodes])));
    try {
      const legacy = (await (await fetch(`${base}/api/v1`)).json()) as { resources: unknown[] };
      expect(legacy.resources).toEqual([
        { name: 'nodes', singularName: 'node', namespaced: false, kind: 'Node', verbs: ['get'] },
        {
          name: 'pods',
          singularName: 'pod',
          namespaced: true,
          kind: 'Pod',
          verbs: ['create', 'get', 'list', 'watch'],
          shortNames: ['po'],
          categories: ['all'],
          storageVersionHash: 'xPOwRZ+Yhw8=',
        },
        { name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] },
        {
          name: 'pods/status',
          singularName: '',
          namespaced: true,
          kind: 'Pod',
          verbs: ['get', 'patch', 'update'],
        },
      ]);
      const agg = (await (await fetch(`${base}/api`, { headers: { accept: CLIENT_GO } })).json()) as {
        items: { versions: { resources: unknown[] }[] }[];
      };
      expect(agg.items[0]?.versions[0]?.resources[1]).toEqual({
        resource: 'pods',
        responseKind: { group: '', version: 'v1', kind: 'Pod' },
        scope: 'Namespaced',
        singularResource: 'pod',
        verbs: ['create', 'get', 'list', 'watch'],
        shortNames: ['po'],
        categories: ['all'],
        subresources: [
          {
            subresource: 'binding',
            responseKind: { group: '', version: 'v1', kind: 'Binding' },
            verbs: ['create'],
          },
          {
            subresource: 'status',
            responseKind: { group: '', version: 'v1', kind: 'Pod' },
            verbs: ['get', 'patch', 'update'],
          },
        ],
      });
      expect(agg.items[0]?.versions[0]?.resources[0]).toMatchObject({ resource: 'nodes', scope: 'Cluster' });
      // Without a configured address, /api names the address the request arrived on.
      const api = (await (await fetch(`${base}/api`)).json()) as { serverAddressByClientCIDRs: unknown };
      expect(api.serverAddressByClientCIDRs).toEqual([
        { clientCIDR: '0.0.0.0/0', serverAddress: new URL(base).host },
      ]);
      // No named groups: an empty list, and any /apis/<group> falls through.
      expect(await (await fetch(`${base}/apis`)).json()).toEqual({
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: [],
      });
      expect((await fetch(`${base}/apis/events.k8s.io`)).status).toBe(418);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
