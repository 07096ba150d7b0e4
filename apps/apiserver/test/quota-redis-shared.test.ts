/**
 * ResourceQuota's charge is a compare-and-swap on the quota's status: two API servers on one
 * Redis, creating pods concurrently, never together pass the quota's limit.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { create, expectStatus, podBody, podPath, unique, type Json } from './support/core.js';
import { eventually } from './support/http.js';

const quotaPath = (ns: string, name = '') =>
  `/api/v1/namespaces/${ns}/resourcequotas${name ? `/${name}` : ''}`;

/** The quota's status.used once the controller (or a charge) has recorded `want` pods. */
async function usedPods(server: TestApiServer, ns: string, name: string, want: string): Promise<Json> {
  const r = await eventually(
    () => server.request('GET', quotaPath(ns, name)),
    (x) => (x.json as { status?: { used?: Json } }).status?.used?.['pods'] === want,
  );
  return (r.json as { status?: { used?: Json } }).status?.used ?? {};
}

describe('resource quota across two API servers on one Redis', () => {
  let a: TestApiServer;
  let b: TestApiServer;
  beforeAll(async () => {
    const args = [`--store-servers=${inject('redisUrl')}`, `--store-prefix=/quota-${unique('p')}`];
    // One after the other: two start-ups at once can outlast the start timeout on a busy machine.
    a = await TestApiServer.start({ args });
    b = await TestApiServer.start({ args });
    await Promise.all([a.ready(), b.ready()]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('lets exactly as many of 20 concurrent pod creates through as the quota allows', async () => {
    const ns = unique('race');
    await create(a, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await create(a, quotaPath(ns), {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'five' },
      spec: { hard: { pods: '5' } },
    });
    await usedPods(a, ns, 'five', '0');
    await usedPods(b, ns, 'five', '0');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).request('POST', podPath(ns), { body: podBody(`p${i}`) }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 403)).toHaveLength(15);
    for (const r of results.filter((x) => x.status === 403))
      expect((r.json as Json)['message']).toMatch(
        /exceeded quota: five, requested: pods=1, used: pods=5, limited: pods=5$/,
      );
    const pods = await expectStatus(a.request('GET', podPath(ns)), 200);
    expect(pods['items']).toHaveLength(5);
    expect(await usedPods(b, ns, 'five', '5')).toEqual({ pods: '5' });
  });
});
