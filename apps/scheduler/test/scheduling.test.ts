import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type DaemonProcess } from '@keel/testing';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, eventually, expectAllBoundOnce, scheduledCounts } from './cluster.js';

// The built apiserver and scheduler as separate processes: pods and nodes go in through the API,
// bindings, events and conditions come out of it.
let cluster: Cluster;
const running: DaemonProcess[] = [];

beforeAll(async () => {
  cluster = await Cluster.start();
});
afterAll(async () => {
  await cluster?.stop();
});
afterEach(async () => {
  for (const d of running.splice(0)) await d.stop();
});

function scheduler(args: readonly string[]): DaemonProcess {
  const d = cluster.scheduler(args);
  running.push(d);
  return d;
}

describe('keel-scheduler against keel-apiserver (built processes)', () => {
  it('binds every schedulable pod exactly once and reports it', async () => {
    const ns = 'sched-basic';
    await cluster.createNamespace(ns);
    await cluster.createNode('basic-1', { cpu: '4' });
    await cluster.createNode('basic-2', { cpu: '4' });
    const early = ['early-0', 'early-1', 'early-2'];
    for (const n of early) await cluster.createPod(ns, n, { cpu: '500m' });
    const d = scheduler(['--leader-elect=false']);
    await d.waitFor(/"Starting scheduling"/);
    const late = Array.from({ length: 7 }, (_, i) => `late-${i}`);
    for (const n of late) await cluster.createPod(ns, n, { cpu: '500m' });
    await expectAllBoundOnce(cluster, ns, [...early, ...late]);

    const pod = await cluster.pod(ns, 'late-0');
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    const events = await cluster.events(ns);
    const scheduled = events.find((e) => e.reason === 'Scheduled' && e.regarding.name === 'late-0');
    expect(scheduled).toMatchObject({
      type: 'Normal',
      action: 'Binding',
      note: `Successfully assigned ${ns}/late-0 to ${pod.spec.nodeName ?? ''}`,
      reportingController: 'default-scheduler',
      regarding: { kind: 'Pod', name: 'late-0', namespace: ns, uid: pod.metadata.uid },
    });
    expect(scheduled?.reportingInstance).toMatch(/^default-scheduler-/);
    // 5 cores asked of 8: the spread is the balanced-allocation and least-allocated scores at work.
    const nodes = new Set((await cluster.pods(ns)).map((p) => p.spec.nodeName));
    expect(nodes).toEqual(new Set(['basic-1', 'basic-2']));
    expect((await d.stop()).code).toBe(0);
  });

  it('reports a pod that fits nowhere and binds it once a node fits', async () => {
    const ns = 'sched-unfit';
    await cluster.createNamespace(ns);
    await cluster.createNode('small-1', { cpu: '1' });
    const d = scheduler(['--leader-elect=false']);
    await d.waitFor(/"Starting scheduling"/);
    await cluster.createPod(ns, 'big', { cpu: '64' });

    const failed = await eventually(async () =>
      (await cluster.events(ns)).find((e) => e.reason === 'FailedScheduling' && e.regarding.name === 'big'),
    );
    const nodeCount = await eventually(async () => {
      const r = await cluster.api.request('GET', '/api/v1/nodes');
      return (r.json as { items: unknown[] }).items.length;
    });
    // No pod has a lower priority than 'big', so preemption finds no victims and says so.
    const message = `0/${nodeCount} nodes are available: ${nodeCount} Insufficient cpu. preemption: 0/${nodeCount} nodes are available: ${nodeCount} No preemption victims found for incoming pod..`;
    expect(failed).toMatchObject({
      type: 'Warning',
      action: 'Scheduling',
      note: message,
      reportingController: 'default-scheduler',
    });
    const condition = await eventually(async () =>
      (await cluster.pod(ns, 'big')).status?.conditions?.find((c) => c.type === 'PodScheduled'),
    );
    expect(condition).toMatchObject({ status: 'False', reason: 'Unschedulable', message });
    expect((await cluster.pod(ns, 'big')).spec.nodeName).toBeUndefined();

    await cluster.createNode('huge-1', { cpu: '128' });
    const bound = await eventually(async () => (await cluster.pod(ns, 'big')).spec.nodeName);
    expect(bound).toBe('huge-1');
    await expectAllBoundOnce(cluster, ns, ['big']);
    expect(
      (await cluster.pod(ns, 'big')).status?.conditions?.find((c) => c.type === 'PodScheduled')?.status,
    ).toBe('True');
    expect((await d.stop()).code).toBe(0);
  });

  it('leaves pods of other schedulers alone', async () => {
    const ns = 'sched-other';
    await cluster.createNamespace(ns);
    await cluster.createNode('other-1', { cpu: '4' });
    const d = scheduler(['--leader-elect=false']);
    await d.waitFor(/"Starting scheduling"/);
    await cluster.createPod(ns, 'theirs', { schedulerName: 'someone-else' });
    await cluster.createPod(ns, 'ours');
    await expectAllBoundOnce(cluster, ns, ['ours']);
    // The scheduler handles its pods in order of arrival; give it a moment more for the other.
    await new Promise((r) => setTimeout(r, 500));
    expect((await cluster.pod(ns, 'theirs')).spec.nodeName).toBeUndefined();
    expect(scheduledCounts(await cluster.events(ns)).has('theirs')).toBe(false);
    expect((await cluster.events(ns)).some((e) => e.regarding.name === 'theirs')).toBe(false);
    expect((await d.stop()).code).toBe(0);
  });

  it("exposes kube's scheduling metrics", async () => {
    const ns = 'sched-metrics';
    await cluster.createNamespace(ns);
    await cluster.createNode('metrics-1', { cpu: '1' });
    const port = await freePort();
    const certDir = mkdtempSync(join(tmpdir(), 'keel-sched-metrics-'));
    const d = scheduler([
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${certDir}`,
      '--authorization-always-allow-paths=/metrics',
    ]);
    await d.waitFor(/"Starting scheduling"/);
    await cluster.createPod(ns, 'fits', { cpu: '100m' });
    await cluster.createPod(ns, 'never', { cpu: '100000' });
    await expectAllBoundOnce(cluster, ns, ['fits']);
    await eventually(async () => (await cluster.events(ns)).some((e) => e.reason === 'FailedScheduling'));

    const agent = new Agent({
      connect: { ca: readFileSync(join(certDir, 'platform-scheduler-ca.crt'), 'utf8') },
    });
    try {
      const r = await request(`https://127.0.0.1:${port}/metrics`, { dispatcher: agent });
      const text = await r.body.text();
      const value = (series: string) =>
        Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
      const labels = (result: string) => `{result="${result}",profile="default-scheduler"}`;
      expect(value(`scheduler_schedule_attempts_total${labels('scheduled')}`)).toBe(1);
      expect(value(`scheduler_schedule_attempts_total${labels('unschedulable')}`)).toBeGreaterThanOrEqual(1);
      expect(value(`scheduler_scheduling_attempt_duration_seconds_count${labels('scheduled')}`)).toBe(1);
      expect(value(`scheduler_e2e_scheduling_duration_seconds_count${labels('scheduled')}`)).toBe(1);
      expect(value('scheduler_pending_pods{queue="unschedulable"}')).toBe(1);
      expect(value('scheduler_pending_pods{queue="active"}')).toBe(0);
      expect(value('scheduler_pending_pods{queue="gated"}')).toBe(0);
      expect(value('scheduler_pod_scheduling_attempts_count')).toBe(1);
      expect(value('scheduler_scheduling_algorithm_duration_seconds_count')).toBe(1);
      const point = (p: string, status: string) =>
        `scheduler_framework_extension_point_duration_seconds_count{extension_point="${p}",status="${status}",profile="default-scheduler"}`;
      expect(value(point('PreFilter', 'Success'))).toBeGreaterThanOrEqual(2);
      expect(value(point('Bind', 'Success'))).toBe(1);
      // Plugin durations are sampled in 10% of cycles: the metric is there, its series may not be.
      expect(text).toContain('# TYPE scheduler_plugin_execution_duration_seconds histogram');
      expect(
        value('scheduler_queue_incoming_pods_total{queue="active",event="PodAdd"}'),
      ).toBeGreaterThanOrEqual(2);
      expect(
        value('scheduler_queue_incoming_pods_total{queue="unschedulable",event="ScheduleAttemptFailure"}'),
      ).toBeGreaterThanOrEqual(1);
      expect(
        value('scheduler_unschedulable_pods{plugin="NodeResourcesFit",profile="default-scheduler"}'),
      ).toBe(1);
      expect(value('scheduler_scheduler_cache_size{type="nodes"}')).toBeGreaterThanOrEqual(1);
      expect(value('scheduler_scheduler_cache_size{type="pods"}')).toBeGreaterThanOrEqual(1);
      // 'never' fails Filter everywhere: DefaultPreemption runs (an attempt, timed as PostFilter) and
      // finds no victims, so none are observed.
      expect(value('scheduler_preemption_attempts_total')).toBeGreaterThanOrEqual(1);
      expect(value(point('PostFilter', 'Unschedulable'))).toBeGreaterThanOrEqual(1);
      expect(value('scheduler_preemption_victims_count')).toBe(0);
    } finally {
      await agent.close();
    }
    expect((await d.stop()).code).toBe(0);
  });
});
