import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type DaemonProcess } from '@keel/testing';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, FAST_ELECTION, eventually, expectAllBoundOnce, scheduledCounts } from './cluster.js';

// Leases of 2 s, renewals within 1.5 s, retries every 0.5 s (jittered up to 1.1 s): a replica
// that dies holding the lease is replaced within about 3 s.
const LEASE_MS = 2_000;
const RETRY_MAX_MS = 500 * 2.2;
const ACQUIRED = /"Successfully acquired lease"/;
const BOUND = /"Successfully bound pod to node"/g;

let cluster: Cluster;
const running: DaemonProcess[] = [];

beforeAll(async () => {
  cluster = await Cluster.start();
});
afterAll(async () => {
  await cluster?.stop();
});
afterEach(async () => {
  for (const d of running.splice(0)) await d.stop('SIGKILL');
});

function replica(lockName: string, extra: readonly string[] = []): DaemonProcess {
  const d = cluster.scheduler([...FAST_ELECTION, `--leader-elect-resource-name=${lockName}`, ...extra]);
  running.push(d);
  return d;
}

/** The replica that acquires the lease first, and the other. */
async function leaderOf(a: DaemonProcess, b: DaemonProcess): Promise<[DaemonProcess, DaemonProcess]> {
  return eventually(
    async () => (ACQUIRED.test(a.stderr) ? [a, b] : ACQUIRED.test(b.stderr) ? [b, a] : undefined),
    20_000,
    'a leader',
  );
}

const bindings = (d: DaemonProcess) => d.stderr.match(BOUND)?.length ?? 0;

describe('keel-scheduler leader election (built processes)', () => {
  it('lets only the leader bind; a SIGKILLed leader is replaced within the lease and nothing is bound twice', async () => {
    const ns = 'le-failover';
    await cluster.createNamespace(ns);
    await cluster.createNode('le-1', { cpu: '32' });
    await cluster.createNode('le-2', { cpu: '32' });
    const a = replica('failover');
    const b = replica('failover');
    const [leader, follower] = await leaderOf(a, b);
    await leader.waitFor(/"Starting scheduling"/);
    await follower.waitFor(/"Caches populated"/);

    const first = Array.from({ length: 6 }, (_, i) => `first-${i}`);
    for (const n of first) await cluster.createPod(ns, n, { cpu: '100m' });
    await expectAllBoundOnce(cluster, ns, first);
    expect(bindings(leader)).toBe(first.length);
    expect(bindings(follower)).toBe(0);
    expect(follower.stderr).not.toMatch(/"Starting scheduling"/);

    const lease = await cluster.lease('platform-system', 'failover');
    const killedAt = Date.now();
    leader.child.kill('SIGKILL');
    // Pods created while nobody leads wait for the next leader.
    const meanwhile = Array.from({ length: 6 }, (_, i) => `meanwhile-${i}`);
    for (const n of meanwhile) await cluster.createPod(ns, n, { cpu: '100m' });

    await follower.waitFor(ACQUIRED, 10_000);
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs).toBeLessThan(LEASE_MS + RETRY_MAX_MS + 1_500);
    await expectAllBoundOnce(cluster, ns, [...first, ...meanwhile]);
    expect(bindings(follower)).toBe(meanwhile.length);

    const after = await cluster.lease('platform-system', 'failover');
    expect(after?.spec.holderIdentity).not.toBe(lease?.spec.holderIdentity);
    expect(after?.spec.leaseTransitions).toBe((lease?.spec.leaseTransitions ?? 0) + 1);
    const coreEvents = await cluster.coreEvents('platform-system');
    const became = coreEvents.filter(
      (e) => e.reason === 'LeaderElection' && e.involvedObject.name === 'failover',
    );
    expect(became.map((e) => e.message)).toEqual([
      `${lease?.spec.holderIdentity ?? ''} became leader`,
      `${after?.spec.holderIdentity ?? ''} became leader`,
    ]);
    expect(after?.spec.holderIdentity).toMatch(/^[^_]+_[0-9a-f-]{36}$/);
  });

  it('hands over at once when the leader shuts down cleanly (it releases the lease) and exits 0', async () => {
    const ns = 'le-release';
    await cluster.createNamespace(ns);
    await cluster.createNode('rel-1', { cpu: '32' });
    const a = replica('release');
    const b = replica('release');
    const [leader, follower] = await leaderOf(a, b);
    await leader.waitFor(/"Starting scheduling"/);
    await cluster.createPod(ns, 'before');
    await expectAllBoundOnce(cluster, ns, ['before']);

    const held = (await cluster.lease('platform-system', 'release'))?.spec.holderIdentity;
    const stoppedAt = Date.now();
    const exit = await leader.stop('SIGTERM');
    expect(exit.code).toBe(0);
    // Released (empty holder) or already taken by the follower: no longer the old leader's.
    expect((await cluster.lease('platform-system', 'release'))?.spec.holderIdentity).not.toBe(held);
    await follower.waitFor(ACQUIRED, 10_000);
    // A released lease is free at the follower's next attempt, long before it would expire.
    expect(Date.now() - stoppedAt).toBeLessThan(LEASE_MS + RETRY_MAX_MS);
    await cluster.createPod(ns, 'after');
    await expectAllBoundOnce(cluster, ns, ['before', 'after']);
    const coreEvents = await cluster.coreEvents('platform-system');
    expect(
      coreEvents.some((e) => e.reason === 'LeaderElection' && e.message.endsWith(' stopped leading')),
    ).toBe(true);
  });

  it('stops binding and exits non-zero when its lease is taken away', async () => {
    const ns = 'le-lost';
    await cluster.createNamespace(ns);
    await cluster.createNode('lost-1', { cpu: '32' });
    const d = replica('lost');
    await d.waitFor(/"Starting scheduling"/);
    await cluster.createPod(ns, 'before');
    await expectAllBoundOnce(cluster, ns, ['before']);

    // Another holder with a long lease: every renewal now conflicts or finds the lease held.
    const path = '/apis/coordination.k8s.io/v1/namespaces/platform-system/leases/lost';
    await eventually(async () => {
      const current = await cluster.lease('platform-system', 'lost');
      const r = await cluster.api.request('PUT', path, {
        body: {
          ...current,
          spec: { ...current?.spec, holderIdentity: 'intruder', leaseDurationSeconds: 3600 },
        },
      });
      return r.status === 200;
    });
    // Pods keep arriving while the replica runs without its lease: the ones it sees before it
    // notices the loss may still be bound (as with kube), none created after it noticed.
    const exited = d.wait();
    let alive = true;
    void exited.then(() => (alive = false));
    const afterNotice: string[] = [];
    for (let i = 0; alive && i < 100; i++) {
      const noticed = /"Stopped leading"/.test(d.stderr);
      await cluster.createPod(ns, `after-${i}`);
      if (noticed) afterNotice.push(`after-${i}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const exit = await exited;
    expect(exit.code).toBe(1);
    expect(exit.stderr).toMatch(/"Leaderelection lost"/);
    await new Promise((r) => setTimeout(r, 500));
    const scheduled = scheduledCounts(await cluster.events(ns));
    for (const name of afterNotice) {
      expect([name, (await cluster.pod(ns, name)).spec.nodeName]).toEqual([name, undefined]);
      expect([name, scheduled.has(name)]).toEqual([name, false]);
    }
    // Nothing was bound twice on the way out.
    expect([...scheduled.values()].every((n) => n === 1)).toBe(true);
  });

  it.each([
    ['endpointsleases', 'endpoints'],
    ['configmapsleases', 'configmaps'],
  ])('leads through the %s lock: the record in the %s annotation and the Lease', async (lock, resource) => {
    const name = `multi-${resource}`;
    const d = replica(name, [`--leader-elect-resource-lock=${lock}`]);
    await d.waitFor(/"Starting scheduling"/);
    const r = await cluster.api.request('GET', `/api/v1/namespaces/platform-system/${resource}/${name}`);
    expect(r.status).toBe(200);
    const annotation = (r.json as { metadata: { annotations?: Record<string, string> } }).metadata
      .annotations?.['control-plane.alpha.kubernetes.io/leader'];
    const holder = (await cluster.lease('platform-system', name))?.spec.holderIdentity;
    expect(holder).toMatch(/_/);
    expect(JSON.parse(annotation ?? '{}')).toMatchObject({ holderIdentity: holder, leaseDurationSeconds: 2 });
  });

  it('reports leaderElection on /healthz', async () => {
    const port = await freePort();
    const certDir = mkdtempSync(join(tmpdir(), 'keel-sched-le-'));
    const d = replica('healthz', [
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${certDir}`,
    ]);
    await d.waitFor(/"Starting scheduling"/);
    const agent = new Agent({
      connect: { ca: readFileSync(join(certDir, 'platform-scheduler-ca.crt'), 'utf8') },
    });
    try {
      const r = await request(`https://127.0.0.1:${port}/healthz?verbose`, { dispatcher: agent });
      expect(r.statusCode).toBe(200);
      expect(await r.body.text()).toContain('[+]leaderElection ok');
    } finally {
      await agent.close();
    }
  });
});
