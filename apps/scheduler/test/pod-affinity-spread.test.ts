import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DaemonProcess } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, eventually, expectAllBoundOnce } from './cluster.js';

// Pod (anti-)affinity and topology spreading through the built apiserver and scheduler: three
// nodes, two in zone-a and one in zone-b, pods created through the API.
let cluster: Cluster;
let scheduler: DaemonProcess | undefined;
const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';
const NODES: [string, string][] = [
  ['aff-1', 'zone-a'],
  ['aff-2', 'zone-a'],
  ['aff-3', 'zone-b'],
];

async function call(method: string, path: string, body: unknown): Promise<void> {
  const r = await cluster.api.request(method, path, { body });
  if (r.status !== 201 && r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
}

async function createPod(
  ns: string,
  name: string,
  labels: Record<string, string>,
  spec: object,
  meta: object = {},
): Promise<void> {
  await call('POST', `/api/v1/namespaces/${ns}/pods`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels, ...meta },
    spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }], ...spec },
  });
}

async function failure(ns: string, name: string): Promise<string> {
  const e = await eventually(
    async () =>
      (await cluster.events(ns)).find((x) => x.reason === 'FailedScheduling' && x.regarding.name === name),
    30_000,
    `FailedScheduling for ${name}`,
  );
  return e.note ?? '';
}

beforeAll(async () => {
  cluster = await Cluster.start();
  for (const [name, zone] of NODES) {
    const resources = { cpu: '4', memory: '8Gi', pods: '110' };
    await call('POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { [HOST]: name, [ZONE]: zone } },
      spec: {},
      status: { capacity: resources, allocatable: resources },
    });
    await cluster.markReady(name);
  }
  scheduler = cluster.scheduler(['--leader-elect=false']);
  await scheduler.waitFor(/"Starting scheduling"/);
});

afterAll(async () => {
  await scheduler?.stop();
  await cluster?.stop();
});

describe('InterPodAffinity and PodTopologySpread end to end', () => {
  it('puts pods with hostname anti-affinity on different nodes and refuses a fourth', async () => {
    const ns = 'anti';
    await cluster.createNamespace(ns);
    const antiAffinity = {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: HOST },
          ],
        },
      },
    };
    const names = ['web-0', 'web-1', 'web-2'];
    // Created together: the later ones are scheduled while the first bindings are in flight.
    await Promise.all(names.map((n) => createPod(ns, n, { app: 'web' }, antiAffinity)));
    await expectAllBoundOnce(cluster, ns, names);
    const nodes = (await cluster.pods(ns)).map((p) => p.spec.nodeName);
    expect(new Set(nodes)).toEqual(new Set(['aff-1', 'aff-2', 'aff-3']));

    await createPod(ns, 'web-3', { app: 'web' }, antiAffinity);
    // The pods all have the same priority, so preemption finds no victims (kube's trailing sentence).
    const message =
      "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..";
    expect(await failure(ns, 'web-3')).toBe(message);
    const condition = await eventually(async () =>
      (await cluster.pod(ns, 'web-3')).status?.conditions?.find((c) => c.type === 'PodScheduled'),
    );
    expect(condition).toMatchObject({ status: 'False', reason: 'Unschedulable', message });

    // A pod without anti-affinity of its own is kept off the nodes whose pods' rules select it.
    await createPod(ns, 'plain-web', { app: 'web' }, {});
    expect(await failure(ns, 'plain-web')).toBe(
      "0/3 nodes are available: 3 node(s) didn't satisfy existing pods anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..",
    );
  });

  it('follows required pod affinity, and retries a waiting pod once a matching pod is bound', async () => {
    const ns = 'affinity';
    await cluster.createNamespace(ns);
    const affinityTo = (app: string) => ({
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app } }, topologyKey: ZONE },
          ],
        },
      },
    });
    await createPod(ns, 'db', { app: 'db' }, { nodeName: 'aff-3' });
    const caches = ['cache-0', 'cache-1', 'cache-2'];
    for (const n of caches) await createPod(ns, n, {}, affinityTo('db'));
    await expectAllBoundOnce(cluster, ns, caches);
    for (const n of caches) expect((await cluster.pod(ns, n)).spec.nodeName).toBe('aff-3');

    // No pod matches yet (and the pod does not match itself): it waits.
    await createPod(ns, 'worker', {}, affinityTo('queue'));
    expect(await failure(ns, 'worker')).toBe(
      // Unresolvable: preemption does not even try.
      "0/3 nodes are available: 3 node(s) didn't match pod affinity rules. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
    // A matching pod bound in zone-a moves it back to the queue at once (not after the
    // five-minute unschedulable flush).
    await createPod(ns, 'queue', { app: 'queue' }, { nodeName: 'aff-1' });
    await expectAllBoundOnce(cluster, ns, ['worker']);
    expect(['aff-1', 'aff-2']).toContain((await cluster.pod(ns, 'worker')).spec.nodeName);
  });

  it('spreads pods over zones within maxSkew and refuses a constraint no node can meet', async () => {
    const ns = 'spread';
    await cluster.createNamespace(ns);
    const spread = (topologyKey: string) => ({
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey,
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 's' } },
        },
      ],
    });
    const names = ['s-0', 's-1', 's-2', 's-3'];
    // One at a time: every placement must keep the zones within one pod of each other.
    for (const n of names) {
      await createPod(ns, n, { app: 's' }, spread(ZONE));
      await expectAllBoundOnce(cluster, ns, [n]);
    }
    const zoneOf = new Map(NODES);
    const perZone = new Map<string, number>();
    for (const p of await cluster.pods(ns)) {
      const z = zoneOf.get(p.spec.nodeName ?? '') ?? '?';
      perZone.set(z, (perZone.get(z) ?? 0) + 1);
    }
    expect(Object.fromEntries(perZone)).toEqual({ 'zone-a': 2, 'zone-b': 2 });

    await createPod(ns, 'no-rack', { app: 's' }, spread('rack'));
    expect(await failure(ns, 'no-rack')).toBe(
      "0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints (missing required label). preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
  });
});

describe('PodTopologySpread system default constraints end to end', () => {
  // A second scheduler whose only scorer is PodTopologySpread (system defaulting: hostname
  // maxSkew 3, zone maxSkew 5, both ScheduleAnyway), so placements follow the spreading alone.
  let spreadOnly: DaemonProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'keel-spread-'));
  afterAll(async () => {
    await spreadOnly?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("spreads a ReplicaSet's pods over zones by the ReplicaSet's selector", async () => {
    const ns = 'rs-spread';
    await cluster.createNamespace(ns);
    const labels = { app: 'rsweb' };
    const container = { name: 'app', image: 'registry.example/app:1' };
    // Keel runs no ReplicaSet controller: the test creates the pods with their owner reference.
    const r = await cluster.api.request('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'web' },
        spec: {
          replicas: 10,
          selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [container] } },
        },
      },
    });
    expect(r.status, r.text).toBe(201);
    const uid = (JSON.parse(r.text) as { metadata: { uid: string } }).metadata.uid;
    const owned = {
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid, controller: true }],
    };
    // Six pods already on aff-1 (zone-a): zone-a counts 6, zone-b none.
    for (let i = 0; i < 6; i++) await createPod(ns, `placed-${i}`, labels, { nodeName: 'aff-1' }, owned);

    const config = join(dir, 'spread-only.yaml');
    writeFileSync(
      config,
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n' +
        `clientConnection:\n  kubeconfig: ${cluster.kubeconfig}\nleaderElection:\n  leaderElect: false\n` +
        'profiles:\n- schedulerName: spread-only\n  plugins:\n    score:\n' +
        "      disabled: [{name: '*'}]\n      enabled: [{name: PodTopologySpread}]\n",
    );
    spreadOnly = cluster.scheduler([`--config=${config}`]);
    await spreadOnly.waitFor(/"Starting scheduling"/);

    // kube's score per node: sum over constraints of matching × log(domains + 2) + maxSkew - 1,
    // lower is better. aff-2 scores 2 + 6·log 4 + 4 ≈ 14.3; aff-3 with k pods 6 + k·(log 5 + log 4),
    // so the first three go to zone-b's aff-3 and the fourth to aff-2.
    const placed: string[] = [];
    for (let i = 0; i < 4; i++) {
      const name = `new-${i}`;
      await createPod(ns, name, labels, { schedulerName: 'spread-only' }, owned);
      await expectAllBoundOnce(cluster, ns, [name]);
      placed.push((await cluster.pod(ns, name)).spec.nodeName ?? '');
    }
    expect(placed).toEqual(['aff-3', 'aff-3', 'aff-3', 'aff-2']);
  });
});
