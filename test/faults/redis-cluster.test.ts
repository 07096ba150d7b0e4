/**
 * Keel on a real Redis Cluster (issue 13): three masters with one replica each, started here.
 * The storage conformance suite passes on it with one hash tag per resource; an API server's
 * keys spread over every master under a mixed load; and a manual failover of the master holding
 * a resource loses no acknowledged write and does not end the watches on it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStorage, type RedisTopology, type Storage, type StoredObject } from '@keel/storage';
import { describeStorageConformance } from '@keel/storage/testing';
import { startRedisCluster, TestApiServer, type RedisCluster } from '@keel/testing';
import { WatchStream } from '../../apps/apiserver/test/support/watch-stream.js';

let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
}, 120_000);
afterAll(async () => {
  await cluster?.close();
});

const prefix = (): string => `/conf-${randomUUID()}`;

describeStorageConformance('redis cluster, one hash tag per resource', (opts) =>
  createRedisStorage({ urls: cluster.urls.slice(0, 3), prefix: prefix(), watchBlockMs: 200, ...opts }),
);

// The same with every list that may be served from memory served by each resource's watch cache.
describeStorageConformance('redis cluster, watch cache', (opts) =>
  createRedisStorage({
    urls: cluster.urls.slice(0, 3),
    prefix: prefix(),
    watchBlockMs: 200,
    ...opts,
    watchCache: () => true,
  }),
);

describe('redis cluster mode', () => {
  const opened: Storage[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close()));
  });

  it('is detected from one seed URL, and gives each resource its own slot and sequence', async () => {
    let topology: RedisTopology | undefined;
    const p = prefix();
    const s = await createRedisStorage({
      urls: [cluster.urls[1]!],
      prefix: p,
      onTopology: (t) => (topology = t),
    });
    opened.push(s);
    expect(topology).toEqual({ cluster: true, shardByResource: true });
    const a = await s.create<StoredObject>('/pods/ns/a', { metadata: { name: 'a' } });
    const b = await s.create<StoredObject>('/configmaps/ns/b', { metadata: { name: 'b' } });
    await s.create('/pods/ns/c', { metadata: { name: 'c' } });
    // Each resource counts on its own: the second resource's first write is 1 again.
    expect([a.metadata?.resourceVersion, b.metadata?.resourceVersion]).toEqual(['1', '1']);
    expect(await s.currentResourceVersion('/pods')).toBe('2');
    expect(await s.currentResourceVersion('/configmaps')).toBe('1');
    const pods = await cluster.masterOf(`{${p}/pods}`);
    const keys = await cluster.keysPerMaster(`{${p}/pods}*`);
    expect(keys.get(pods.port)).toBe(7); // rv, index, log, versions, versions-at and the two objects
  });
});

type Json = Record<string, unknown>;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A few objects of several resources in namespace `ns`, each create expected to succeed. */
async function mixedLoad(server: TestApiServer, ns: string, n: number): Promise<void> {
  const meta = (name: string): Json => ({ name, namespace: ns });
  const bodies: [string, (i: number) => Json][] = [
    [`/api/v1/namespaces/${ns}/configmaps`, (i) => ({ metadata: meta(`cm-${i}`), data: { i: String(i) } })],
    [`/api/v1/namespaces/${ns}/secrets`, (i) => ({ metadata: meta(`s-${i}`), stringData: { i: String(i) } })],
    [`/api/v1/namespaces/${ns}/serviceaccounts`, (i) => ({ metadata: meta(`sa-${i}`) })],
    [
      `/api/v1/namespaces/${ns}/pods`,
      (i) => ({ metadata: meta(`pod-${i}`), spec: { containers: [{ name: 'c', image: 'busybox' }] } }),
    ],
    [
      `/api/v1/namespaces/${ns}/events`,
      (i) => ({
        metadata: meta(`ev-${i}`),
        involvedObject: { kind: 'Pod', namespace: ns, name: `pod-${i}` },
        reason: 'Tested',
        message: 'mixed load',
        type: 'Normal',
      }),
    ],
    [
      `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`,
      (i) => ({ metadata: meta(`lease-${i}`), spec: { holderIdentity: `h-${i}` } }),
    ],
  ];
  for (let i = 0; i < n; i++) {
    for (const [path, body] of bodies) {
      const r = await server.request('POST', path, { body: body(i) });
      if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
    }
  }
}

describe('an API server on the cluster', () => {
  const storePrefix = '/keel-cluster';
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [`--store-servers=${cluster.urls.slice(0, 3).join(',')}`, `--store-prefix=${storePrefix}`],
    });
    await server.ready(30_000);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('spreads the resources of a mixed load over every master, each resource on one', async () => {
    const ns = 'spread';
    expect(
      (await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
    ).toBe(201);
    await mixedLoad(server, ns, 10);
    const perMaster = await cluster.keysPerMaster(`{${storePrefix}*`);
    expect(perMaster.size).toBe(3);
    for (const [port, keys] of perMaster) expect(keys, `keys on the master on ${port}`).toBeGreaterThan(0);
    // A resource's keys share one hash tag, so they all sit on the master of that tag.
    for (const root of ['/configmaps', '/secrets', '/pods', '/events', '/leases']) {
      const byMaster = await cluster.keysPerMaster(`{${storePrefix}${root}}*`);
      const holding = [...byMaster].filter(([, n]) => n > 0).map(([port]) => port);
      expect(holding, root).toEqual([(await cluster.masterOf(`{${storePrefix}${root}}`)).port]);
      expect(byMaster.get(holding[0]!)).toBeGreaterThanOrEqual(10 + 3); // objects, rv, index, log
    }
    // A list's resourceVersion is its resource's own sequence, at least each item's version.
    const cms = (await server.request('GET', `/api/v1/namespaces/${ns}/configmaps`)).json as {
      metadata: { resourceVersion: string };
      items: { metadata: { name: string; resourceVersion: string } }[];
    };
    expect(cms.items.filter((o) => o.metadata.name.startsWith('cm-'))).toHaveLength(10);
    for (const o of cms.items)
      expect(Number(o.metadata.resourceVersion)).toBeLessThanOrEqual(Number(cms.metadata.resourceVersion));
  });

  it('survives a failover of the master holding configmaps: no acknowledged write lost, the watch goes on', async () => {
    const ns = 'failover';
    expect(
      (await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
    ).toBe(201);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const listed = (await server.request('GET', path)).json as Json;
    const rv = (listed['metadata'] as Json)['resourceVersion'] as string;
    const watch = await WatchStream.open(server, `${path}?watch=true&resourceVersion=${rv}`);
    expect(watch.status).toBe(200);

    // One writer, as a controller would: a failed create is retried, and AlreadyExists on the
    // retry means the first attempt went through after all.
    const acked: string[] = [];
    const failures: string[] = [];
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const name = `cm-${i}`;
        for (;;) {
          const r = await server.request('POST', path, {
            body: { metadata: { name }, data: { i: String(i) } },
          });
          if (r.status === 201 || r.status === 409) break;
          failures.push(`${r.status}`);
          await sleep(50);
        }
        acked.push(name);
      }
    })();
    const waitAcked = async (n: number): Promise<void> => {
      const deadline = Date.now() + 60_000;
      while (acked.length < n) {
        if (Date.now() > deadline) throw new Error(`only ${acked.length} writes acknowledged`);
        await sleep(20);
      }
    };
    try {
      await waitAcked(20);
      const owner = await cluster.masterOf(`{${storePrefix}/configmaps}`);
      const promoted = await cluster.failover(owner.port);
      expect((await cluster.masterOf(`{${storePrefix}/configmaps}`)).port).toBe(promoted);
      await waitAcked(acked.length + 20);
    } finally {
      stop = true;
      await writer;
    }

    const names = new Set(
      ((await server.request('GET', path)).json as { items: { metadata: { name: string } }[] }).items.map(
        (o) => o.metadata.name,
      ),
    );
    expect(acked.filter((n) => !names.has(n))).toEqual([]);
    // The same watch (never ended) delivers every write, in resourceVersion order.
    const seen: string[] = [];
    let last = Number(rv);
    while (seen.length < acked.length) {
      const ev = await watch.next();
      expect(ev.type).toBe('ADDED');
      const meta = ev.object['metadata'] as Json;
      const at = Number(meta['resourceVersion']);
      expect(at).toBeGreaterThan(last);
      last = at;
      seen.push(meta['name'] as string);
    }
    expect(seen).toEqual(acked);
    expect(watch.isEnded).toBe(false);
    console.log(`failover: ${acked.length} creates acknowledged, ${failures.length} failed attempts retried`);
  });
});
