import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DaemonProcess } from '@keel/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExtenderServer } from '../src/extender/testing/extender-server.js';
import { Cluster, eventually, expectAllBoundOnce } from './cluster.js';

// DefaultPreemption end to end: the built apiserver and scheduler as separate processes. The
// victims are deleted through the API (Keel runs no kubelet, so a deleted pod is gone at once).
let cluster: Cluster;
const running: DaemonProcess[] = [];

beforeAll(async () => {
  cluster = await Cluster.start();
  for (const [name, value, preemptionPolicy] of [
    ['preempt-low', 10, undefined],
    ['preempt-mid', 20, undefined],
    ['preempt-high', 1000, undefined],
    ['preempt-never', 1000, 'Never'],
  ] as const) {
    await call('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name },
      value,
      ...(preemptionPolicy ? { preemptionPolicy } : {}),
    });
  }
});
afterAll(async () => {
  await cluster?.stop();
});
afterEach(async () => {
  for (const d of running.splice(0)) await d.stop();
});

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const r = await cluster.api.request(method, path, body === undefined ? {} : { body });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.json;
}

interface PodView {
  metadata: { uid: string; deletionTimestamp?: string };
  spec: { nodeName?: string };
  status?: {
    nominatedNodeName?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}

async function createPod(
  ns: string,
  name: string,
  cpu: string,
  o: {
    priorityClassName?: string;
    labels?: Record<string, string>;
    finalizers?: string[];
    /** Only these nodes (required node affinity on the hostname). */
    nodes?: string[];
  } = {},
): Promise<PodView> {
  const hostIn = { key: 'kubernetes.io/hostname', operator: 'In', values: o.nodes };
  const affinity = {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [hostIn] }] },
    },
  };
  return (await call('POST', `/api/v1/namespaces/${ns}/pods`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.finalizers ? { finalizers: o.finalizers } : {}),
    },
    spec: {
      ...(o.priorityClassName ? { priorityClassName: o.priorityClassName } : {}),
      ...(o.nodes ? { affinity } : {}),
      containers: [{ name: 'app', image: 'registry.example/app:1', resources: { requests: { cpu } } }],
    },
  })) as PodView;
}

async function startScheduler(): Promise<DaemonProcess> {
  const d = cluster.scheduler(['--leader-elect=false']);
  running.push(d);
  await d.waitFor(/"Starting scheduling"/);
  return d;
}

const gone = async (ns: string, name: string) =>
  (await cluster.api.request('GET', `/api/v1/namespaces/${ns}/pods/${name}`)).status === 404;

describe('preemption against keel-apiserver (built processes)', () => {
  it('deletes a lower-priority pod on a full node and binds the preemptor there', async () => {
    const ns = 'preempt-basic';
    await cluster.createNamespace(ns);
    await cluster.createNode('preempt-1', { cpu: '2' });
    await startScheduler();
    await createPod(ns, 'victim', '2', { priorityClassName: 'preempt-low' });
    await expectAllBoundOnce(cluster, ns, ['victim']);

    const preemptor = await createPod(ns, 'preemptor', '2', { priorityClassName: 'preempt-high' });
    await eventually(() => gone(ns, 'victim'), 20_000, 'the victim to be deleted');
    const bound = await eventually(
      async () => (await cluster.pod(ns, 'preemptor')).spec.nodeName,
      20_000,
      'the preemptor to be bound',
    );
    expect(bound).toBe('preempt-1');

    const events = await cluster.events(ns);
    const preempted = events.find((e) => e.reason === 'Preempted' && e.regarding.name === 'victim');
    expect(preempted).toMatchObject({
      type: 'Normal',
      action: 'Preempting',
      note: `Preempted by pod ${preemptor.metadata.uid} on node preempt-1`,
      reportingController: 'default-scheduler',
      related: { kind: 'Pod', name: 'preemptor', namespace: ns, uid: preemptor.metadata.uid },
    });
    // The first attempt failed (preemption succeeded, so no preemption sentence) and nominated the node.
    const failed = events.find((e) => e.reason === 'FailedScheduling' && e.regarding.name === 'preemptor');
    expect(failed?.note).toMatch(/^0\/\d+ nodes are available: .*Insufficient cpu\.$/);
    const pod = (await cluster.pod(ns, 'preemptor')) as PodView;
    expect(pod.status?.nominatedNodeName).toBe('preempt-1');
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    await expectAllBoundOnce(cluster, ns, ['preemptor']);
    // The preemptor stays: its node remains full for the later tests, with a pod they cannot preempt.
  });

  it('prefers a victim its PodDisruptionBudget allows to lose, and marks it DisruptionTarget', async () => {
    const ns = 'preempt-pdb';
    await cluster.createNamespace(ns);
    await cluster.createNode('pdb-a', { cpu: '2' });
    await cluster.createNode('pdb-b', { cpu: '2' });
    // Keel runs no disruption controller: the budget's status allows no disruption.
    await call('POST', `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`, {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'guard' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'guarded' } } },
    });
    const d = await startScheduler();
    // Each takes a whole node, so each node has one possible victim of the same priority: only
    // the budget tells them apart.
    await createPod(ns, 'guarded', '2', { priorityClassName: 'preempt-low', labels: { app: 'guarded' } });
    await createPod(ns, 'free', '2', { priorityClassName: 'preempt-low', finalizers: ['keel.test/hold'] });
    await expectAllBoundOnce(cluster, ns, ['guarded', 'free']);
    const freeNode = (await cluster.pod(ns, 'free')).spec.nodeName;

    await createPod(ns, 'preemptor', '2', { priorityClassName: 'preempt-high' });
    // The finalizer keeps the deleted victim terminating, holding its node's room.
    const victim = await eventually(
      async () => {
        const p = (await cluster.pod(ns, 'free')) as PodView;
        return p.metadata.deletionTimestamp ? p : undefined;
      },
      20_000,
      'the victim to be deleted',
    ).catch(async (err: unknown) => {
      console.log(JSON.stringify(await cluster.events(ns), null, 1), d.stderr.slice(-6000));
      throw err;
    });
    expect(victim.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'PreemptionByScheduler',
      message: 'default-scheduler: preempting to accommodate a higher priority pod',
    });
    const nominated = await eventually(
      async () => ((await cluster.pod(ns, 'preemptor')) as PodView).status?.nominatedNodeName,
    );
    expect(nominated).toBe(freeNode);
    // While its victim terminates, the preemptor neither binds nor preempts anything else.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await cluster.pod(ns, 'preemptor')).spec.nodeName).toBeUndefined();
    expect(await gone(ns, 'guarded')).toBe(false);

    const r = await cluster.api.request('PATCH', `/api/v1/namespaces/${ns}/pods/free`, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(r.status).toBe(200);
    await eventually(() => gone(ns, 'free'), 20_000, 'the victim to be gone');
    const bound = await eventually(async () => (await cluster.pod(ns, 'preemptor')).spec.nodeName);
    expect(bound).toBe(freeNode);
    expect(await gone(ns, 'guarded')).toBe(false);
    expect((await d.stop()).code).toBe(0);
  });

  it('does not preempt for a pod with preemptionPolicy Never, and says so', async () => {
    const ns = 'preempt-never';
    await cluster.createNamespace(ns);
    const d = await startScheduler();
    const nodes = (await call('GET', '/api/v1/nodes')) as { items: unknown[] };
    await createPod(ns, 'polite', '64', { priorityClassName: 'preempt-never' });
    const failed = await eventually(async () =>
      (await cluster.events(ns)).find(
        (e) => e.reason === 'FailedScheduling' && e.regarding.name === 'polite',
      ),
    );
    const n = nodes.items.length;
    expect(failed?.note).toBe(
      `0/${n} nodes are available: ${n} Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never..`,
    );
    expect((await d.stop()).code).toBe(0);
  });

  it('lets an extender with a preempt verb choose the node and its victims', async () => {
    // Two new nodes, the only ones with room: 'cheap' (priority 10) on one, 'dear' (20) on the
    // other. On its own the scheduler would preempt 'cheap'; the extender keeps only dear's node.
    const ns = 'preempt-extender';
    await cluster.createNamespace(ns);
    await cluster.createNode('preempt-x1', { cpu: '2' });
    await cluster.createNode('preempt-x2', { cpu: '2' });
    const s = await ExtenderServer.start();
    const dir = mkdtempSync(join(tmpdir(), 'keel-preempt-extender-'));
    try {
      s.on('preempt', (body) => {
        const byNode = body['NodeNameToVictims'] as Record<
          string,
          { Pods: { metadata: { name: string; uid: string } }[] }
        >;
        const chosen = Object.entries(byNode).filter(([, v]) =>
          v.Pods.some((p) => p.metadata.name === 'dear'),
        );
        return {
          NodeNameToMetaVictims: Object.fromEntries(
            chosen.map(([n, v]) => [
              n,
              { Pods: v.Pods.map((p) => ({ UID: p.metadata.uid })), NumPDBViolations: 0 },
            ]),
          ),
        };
      });
      const config = join(dir, 'config.yaml');
      writeFileSync(
        config,
        'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n' +
          `clientConnection:\n  kubeconfig: ${cluster.kubeconfig}\nleaderElection:\n  leaderElect: false\n` +
          `extenders:\n- urlPrefix: ${s.url}\n  preemptVerb: preempt\n`,
      );
      const d = cluster.scheduler([`--config=${config}`]);
      running.push(d);
      await d.waitFor(/"Starting scheduling"/);
      await createPod(ns, 'cheap', '2', { priorityClassName: 'preempt-low' });
      await createPod(ns, 'dear', '2', { priorityClassName: 'preempt-mid' });
      await expectAllBoundOnce(cluster, ns, ['cheap', 'dear']);
      const dearNode = (await cluster.pod(ns, 'dear')).spec.nodeName;

      await createPod(ns, 'preemptor', '2', { priorityClassName: 'preempt-high' });
      await eventually(() => gone(ns, 'dear'), 20_000, 'the victim the extender chose to be deleted');
      const bound = await eventually(async () => (await cluster.pod(ns, 'preemptor')).spec.nodeName);
      expect(bound).toBe(dearNode);
      expect(await gone(ns, 'cheap')).toBe(false);
      const offered = s.callsTo('preempt')[0]?.body['NodeNameToVictims'] as Record<string, unknown>;
      expect(Object.keys(offered).length).toBeGreaterThan(1);
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('preempts one victim per preemptor when many preempt at once, each bound where it preempted', async () => {
    // Each preemptor is retried once its victim is gone from the scheduler's cache, so it fits its
    // nominated node and never preempts a second one (retried on the DELETE's answer, it could find
    // that node still full; the unit tests of the executor pin the wait itself).
    const ns = 'preempt-burst';
    await cluster.createNamespace(ns);
    const nodes = Array.from({ length: 8 }, (_, i) => `preempt-b${i}`);
    for (const n of nodes) await cluster.createNode(n, { cpu: '2' });
    await startScheduler();
    const victims = nodes.map((_, i) => `victim-${i}`);
    for (const v of victims) await createPod(ns, v, '2', { priorityClassName: 'preempt-low', nodes });
    await expectAllBoundOnce(cluster, ns, victims);
    const preemptors = Array.from({ length: 5 }, (_, i) => `preemptor-${i}`);
    await Promise.all(
      preemptors.map((p) => createPod(ns, p, '2', { priorityClassName: 'preempt-high', nodes })),
    );
    await expectAllBoundOnce(cluster, ns, preemptors);
    const events = await cluster.events(ns);
    const preempted = events.filter((e) => e.reason === 'Preempted');
    expect(preempted).toHaveLength(preemptors.length);
    const left = (await cluster.pods(ns)).filter((p) => p.metadata.name?.startsWith('victim-'));
    expect(left).toHaveLength(victims.length - preemptors.length);
    for (const p of preemptors) {
      const pod = (await cluster.pod(ns, p)) as PodView;
      expect(pod.spec.nodeName).toBe(pod.status?.nominatedNodeName);
    }
  });
});
