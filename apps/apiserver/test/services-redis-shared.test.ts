/**
 * Services across API servers on one Redis: concurrent creates through both never share a
 * cluster IP or node port, an exhausted range answers the allocator's error, and the platform
 * Endpoints follow --endpoint-reconciler-type (lease: every live server, a stopped one drops
 * out; master-count: this server; none: left alone).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { create, expectStatus, unique, type Json } from './support/core.js';
import { eventually } from './support/http.js';

const svcs = (ns: string) => `/api/v1/namespaces/${ns}/services`;
const EP = '/api/v1/namespaces/default/endpoints/platform';
const addresses = (ep: Json): string[] =>
  ((ep['subsets'] as Json[] | undefined) ?? []).flatMap((s) =>
    ((s['addresses'] as Json[] | undefined) ?? []).map((a) => a['ip'] as string),
  );

describe('services on two API servers sharing one Redis', () => {
  let a: TestApiServer;
  let b: TestApiServer;
  let bStopped = false;
  const prefix = `/svc-${unique('p')}`;
  const shared = [
    `--store-servers=${inject('redisUrl')}`,
    `--store-prefix=${prefix}`,
    '--service-cluster-ip-range=10.1.0.0/27',
    '--service-node-port-range=31000-31039',
    '--endpoint-reconciler-type=lease',
  ];
  beforeAll(async () => {
    a = await TestApiServer.start({ args: [...shared, '--advertise-address=192.0.2.10'] });
    b = await TestApiServer.start({ args: [...shared, '--advertise-address=192.0.2.11'] });
    await Promise.all([a.ready(), b.ready()]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), bStopped ? undefined : b?.stop()]);
  });

  it('hands out distinct cluster IPs and node ports to 40 concurrent creates, then answers range is full', async () => {
    const ns = unique('race');
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? a : b).request('POST', svcs(ns), {
          body: {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: `s${i}` },
            spec: { type: 'NodePort', ports: [{ port: 80 }] },
          },
        }),
      ),
    );
    const created = results.filter((r) => r.status === 201).map((r) => (r.json as Json)['spec'] as Json);
    const refused = results.filter((r) => r.status !== 201);
    // A /27 holds 30 usable addresses, the platform Service has the first: 29 are left.
    expect(created.length).toBe(29);
    for (const r of refused) {
      expect(r.status).toBe(500);
      expect((r.json as Json)['message']).toBe(
        'Internal error occurred: failed to allocate a serviceIP: range is full',
      );
    }
    const ips = created.map((s) => s['clusterIP']);
    expect(new Set(ips).size).toBe(29);
    expect(ips).not.toContain('10.1.0.1');
    const ports = created.map((s) => ((s['ports'] as Json[])[0] ?? {})['nodePort']);
    expect(new Set(ports).size).toBe(29);
    // A deleted Service gives its IP back: the only free one goes to the next create.
    await expectStatus(a.request('DELETE', `${svcs(ns)}/s0`), 200);
    const next = await create(b, svcs(ns), {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'after' },
      spec: { ports: [{ port: 80 }] },
    });
    expect((next['spec'] as Json)['clusterIP']).toBe(created[0]?.['clusterIP']);
  });

  it('lists both servers in the platform endpoints (lease) and drops a stopped one', async () => {
    const both = await eventually(
      () => a.request('GET', EP),
      (r) => r.status === 200 && addresses(r.json as Json).length === 2,
    );
    expect(addresses(both.json as Json).sort()).toEqual(['192.0.2.10', '192.0.2.11']);
    const svc = await expectStatus(a.request('GET', '/api/v1/namespaces/default/services/platform'), 200);
    expect((svc['spec'] as Json)['clusterIP']).toBe('10.1.0.1');
    bStopped = true;
    await b.stop();
    const one = await eventually(
      () => a.request('GET', EP),
      (r) => addresses(r.json as Json).length === 1,
    );
    expect(addresses(one.json as Json)).toEqual(['192.0.2.10']);
  });
});

describe('--endpoint-reconciler-type master-count and none, --master-service-namespace', () => {
  it('master-count publishes this server; none leaves the endpoints alone', async () => {
    const base = [`--store-servers=${inject('redisUrl')}`, `--store-prefix=/svc-${unique('q')}`];
    const counted = await TestApiServer.start({
      args: [...base, '--endpoint-reconciler-type=master-count', '--advertise-address=192.0.2.20'],
    });
    try {
      await counted.ready();
      const ep = await expectStatus(counted.request('GET', EP), 200);
      expect(addresses(ep)).toEqual(['192.0.2.20']);
    } finally {
      await counted.stop();
    }
    const none = await TestApiServer.start({
      args: [
        `--store-servers=${inject('redisUrl')}`,
        `--store-prefix=/svc-${unique('r')}`,
        '--endpoint-reconciler-type=none',
        '--master-service-namespace=platform-public',
      ],
    });
    try {
      await none.ready();
      // The Service is still published (in --master-service-namespace); no Endpoints are written.
      await expectStatus(none.request('GET', '/api/v1/namespaces/platform-public/services/platform'), 200);
      expect(
        (await none.request('GET', '/api/v1/namespaces/platform-public/endpoints/platform')).status,
      ).toBe(404);
      expect((await none.request('GET', EP)).status).toBe(404);
    } finally {
      await none.stop();
    }
  });
});
