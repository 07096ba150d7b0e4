import { randomBytes } from 'node:crypto';
import { TestApiServer } from '@keel/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { eventually } from './support/http.js';

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/platform-system/leases';
const SELECTOR = 'labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver';

interface Lease {
  metadata: { name: string; labels?: Record<string, string> };
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string };
}

const running: TestApiServer[] = [];
async function start(args: string[]): Promise<TestApiServer> {
  const server = await TestApiServer.start({ args });
  running.push(server);
  await server.ready();
  return server;
}
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
});

async function identityLeases(server: TestApiServer): Promise<Lease[]> {
  const r = await server.request('GET', `${LEASES}?${SELECTOR}`);
  expect(r.status).toBe(200);
  return (r.json as { items: Lease[] }).items;
}

describe('API server identity leases', () => {
  it('publishes a lease named after the host, renewed every --identity-lease-renew-interval-seconds', async () => {
    const server = await start([
      '--identity-lease-duration-seconds=30',
      '--identity-lease-renew-interval-seconds=1',
    ]);
    const [lease, ...others] = await identityLeases(server);
    expect(others).toEqual([]);
    expect(lease?.metadata.name).toMatch(/^apiserver-[a-z2-7]{26}$/);
    expect(lease?.metadata.labels?.['kubernetes.io/hostname']).toBeTruthy();
    expect(lease?.spec.holderIdentity).toMatch(new RegExp(`^${lease?.metadata.name}_[0-9a-f-]{36}$`));
    expect(lease?.spec.leaseDurationSeconds).toBe(30);
    const first = lease?.spec.renewTime ?? '';
    expect(first).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const renewed = await eventually(
      () => identityLeases(server),
      (ls) => (ls[0]?.spec.renewTime ?? '') > first,
      10_000,
    );
    expect((renewed[0]?.spec.renewTime ?? '') > first).toBe(true);
  });

  it('a restarted server on the same store takes its lease over, and expired identity leases are collected', async () => {
    const args = [
      `--store-servers=${inject('redisUrl')}`,
      `--store-prefix=/identity-${randomBytes(6).toString('hex')}`,
    ];
    const first = await start(args);
    const [own] = await identityLeases(first);
    // A server that stopped renewing an hour ago, and an unrelated lease that is just as old.
    const old = new Date(Date.now() - 7200_000).toISOString().replace(/Z$/, '000Z');
    const lease = (name: string, labels: Record<string, string>) => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, labels },
      spec: { holderIdentity: `${name}_x`, leaseDurationSeconds: 3600, renewTime: old },
    });
    for (const body of [
      lease('apiserver-gone', { 'apiserver.kubernetes.io/identity': 'kube-apiserver' }),
      lease('some-controller', {}),
    ]) {
      expect((await first.request('POST', LEASES, { body })).status).toBe(201);
    }
    await first.stop();
    running.splice(running.indexOf(first), 1);

    const second = await start(args);
    const names = (await identityLeases(second)).map((l) => l.metadata.name);
    expect(names).toEqual([own?.metadata.name]);
    const [taken] = await identityLeases(second);
    expect(taken?.spec.holderIdentity).not.toBe(own?.spec.holderIdentity);
    expect((await second.request('GET', `${LEASES}/some-controller`)).status).toBe(200);
  });

  it('publishes none with --feature-gates=APIServerIdentity=false', async () => {
    const server = await start(['--feature-gates=APIServerIdentity=false']);
    expect(await identityLeases(server)).toEqual([]);
  });
});
