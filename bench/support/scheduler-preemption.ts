/**
 * The scheduler benchmark's preemption workload: every node full with one low-priority pod that
 * asks for all its cpu, then high-priority pods asking the same, one per node at most, so each one
 * is placed only by preempting a victim. In-process (the algorithm's ceiling) and the set-up of the
 * end-to-end run (priority classes and the victims, created and bound by the bench client).
 */
import { SchedulerCache } from '../../apps/scheduler/src/cache/cache.js';
import { Framework } from '../../apps/scheduler/src/framework/framework.js';
import type { BindPlugin } from '../../apps/scheduler/src/framework/interface.js';
import type { PreemptionPlan } from '../../apps/scheduler/src/framework/preemption-handle.js';
import type { Node, Pod } from '../../apps/scheduler/src/framework/types.js';
import type { EventV1 } from '../../apps/scheduler/src/runtime/events.js';
import { podScheduledFalsePatch } from '../../apps/scheduler/src/runtime/pod-condition.js';
import { disruptionTargetPatch } from '../../apps/scheduler/src/runtime/preemption-executor.js';
import { defaultSchedulerConfiguration } from '../../apps/scheduler/src/options/index.js';
import { newInTreeRegistry } from '../../apps/scheduler/src/plugins/default-registry.js';
import { Nominator } from '../../apps/scheduler/src/scheduling/nominator.js';
import { PodScheduler } from '../../apps/scheduler/src/scheduling/schedule-one.js';
import { CONCURRENCY, NS, pool, type Cluster, type PodShape } from './scheduler-cluster.js';

/** The nodes' cpu (scheduler-cluster's nodes have 32). */
const NODE_CPU = '32';
const LOW = 'bench-low';
const HIGH = 'bench-high';
const EVENTS = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;

/** The high-priority pods of the timed run. */
export const PREEMPTOR_SHAPE: PodShape = { cpu: NODE_CPU, spec: () => ({ priorityClassName: HIGH }) };

function node(i: number): Node {
  const resources = { cpu: NODE_CPU, memory: '128Gi', pods: '110' };
  const name = `node-${i}`;
  return {
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { allocatable: resources },
  };
}

function pod(name: string, priority: number, nodeName?: string): Pod {
  return {
    metadata: { name, namespace: NS, uid: `uid-${name}` },
    spec: {
      priority,
      ...(nodeName ? { nodeName } : {}),
      containers: [{ name: 'app', resources: { requests: { cpu: NODE_CPU, memory: '128Mi' } } }],
    },
  };
}

/**
 * Preemptions per second in this process: each high-priority pod's failed cycle, PostFilter's dry
 * run and choice, its victim removed (as the watch reports the deletion) and the cycle that then
 * places it on its nominated node.
 */
export async function preemptionCyclesPerSecond(
  nodes: number,
  pods: number,
): Promise<{ perS: number; failed: number }> {
  const cache = new SchedulerCache();
  for (let i = 0; i < nodes; i++) {
    cache.addNode(node(i));
    cache.addPod(pod(`low-${i}`, 10, `node-${i}`));
  }
  const plans: PreemptionPlan[] = [];
  const nominator = new Nominator();
  const profile = defaultSchedulerConfiguration().profiles[0];
  if (!profile) throw new Error('no default profile');
  const binder: BindPlugin = { name: 'DefaultBinder', bind: () => Promise.resolve(undefined) };
  const fwk = Framework.fromProfile(
    profile,
    newInTreeRegistry().register('DefaultBinder', () => binder),
    undefined,
    {
      nominator,
      preemption: { podDisruptionBudgets: () => [], execute: (plan) => plans.push(plan) },
    },
  );
  const scheduler = new PodScheduler({ percentageOfNodesToScore: 0 });
  const n = Math.min(pods, nodes);
  let failed = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const p = pod(`high-${i}`, 1000);
    const first = scheduler.schedulePod(fwk, cache.snapshot(), p);
    if (first.ok || !first.fitError || !first.state) {
      failed++;
      continue;
    }
    const post = await fwk.runPostFilterPlugins(first.state, p, first.fitError.diagnosis.nodeToStatus);
    const plan = plans.pop();
    if (!post.status.isSuccess() || !plan) {
      failed++;
      continue;
    }
    nominator.addNominatedPod(p, plan.nodeName);
    for (const v of plan.victims) cache.removePod(v);
    const nominated: Pod = { ...p, status: { nominatedNodeName: plan.nodeName } };
    const second = scheduler.schedulePod(fwk, cache.snapshot(), nominated);
    if (!second.ok) {
      failed++;
      continue;
    }
    cache.assumePod(p, second.result.suggestedHost);
    nominator.delete(p);
  }
  return { perS: n / ((performance.now() - t0) / 1000), failed };
}

/**
 * Before the scheduler starts: the two priority classes, and one low-priority pod per node that
 * takes all its cpu, bound by the bench client. Resolves with how many pods are bound.
 */
export async function fillNodesWithVictims(c: Cluster): Promise<number> {
  for (const [name, value] of [
    [LOW, 10],
    [HIGH, 1000],
  ] as const) {
    await c.post(
      '/apis/scheduling.k8s.io/v1/priorityclasses',
      JSON.stringify({
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name },
        value,
      }),
    );
  }
  const nodes = c.nodeNames.length;
  await pool(nodes, CONCURRENCY, async (i) => {
    const name = `low-${i}`;
    await c.post(
      `/api/v1/namespaces/${NS}/pods`,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: NS },
        spec: {
          priorityClassName: LOW,
          containers: [
            { name: 'app', image: 'registry.example/app:1', resources: { requests: { cpu: NODE_CPU } } },
          ],
        },
      }),
    );
    await c.post(
      `/api/v1/namespaces/${NS}/pods/${name}/binding`,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace: NS },
        target: { apiVersion: 'v1', kind: 'Node', name: c.nodeNames[i] ?? '' },
      }),
    );
  });
  if (c.errors > 0) throw new Error(`${c.errors} requests failed while filling the nodes`);
  return nodes;
}

/** An events.k8s.io/v1 Event as the scheduler's recorder writes it (kube's eventf). */
function eventBody(
  regarding: string,
  reason: string,
  action: string,
  type: EventV1['type'],
  note: string,
  related?: string,
): string {
  const ref = (name: string) => ({ kind: 'Pod', apiVersion: 'v1', name, namespace: NS, uid: `uid-${name}` });
  const event: EventV1 = {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: `${regarding}.${process.hrtime.bigint().toString(16)}`, namespace: NS },
    // MicroTime: RFC 3339 with microseconds, as the recorder writes it.
    eventTime: new Date().toISOString().replace('Z', '000Z'),
    reportingController: 'default-scheduler',
    reportingInstance: 'default-scheduler-bench',
    action,
    reason,
    regarding: ref(regarding),
    ...(related ? { related: ref(related) } : {}),
    note,
    type,
  };
  return JSON.stringify(event);
}

/**
 * The preemption workload's writes-only baseline: for preemptor `i`, the bench itself makes every
 * write keel-scheduler (and kube-scheduler) makes for it, with the scheduler's own patch bodies,
 * and no scheduling: the preemptor's create, its PodScheduled=False status patch with the
 * nominated node, its FailedScheduling Event, the victim's DisruptionTarget patch, its delete and
 * its Preempted Event, the binding and the Scheduled Event. What the API server takes of that is
 * the ceiling of the end-to-end preemption rate on this machine.
 */
export function preemptionWrites(c: Cluster): (i: number) => Promise<void> {
  const nodes = c.nodeNames.length;
  const reason =
    `0/${nodes} nodes are available: ${nodes} Insufficient cpu. ` +
    `preemption: 0/${nodes} nodes are available: ${nodes} No preemption victims found for incoming pod.`;
  return async (i) => {
    const name = `pod-${i}`;
    const victim = `low-${i}`;
    const node = c.nodeNames[i] ?? '';
    const podsPath = `/api/v1/namespaces/${NS}/pods`;
    await c.createPod(i, PREEMPTOR_SHAPE);
    const now = Date.now();
    const failed = podScheduledFalsePatch(pod(name, 1000), 'Unschedulable', reason, now, node);
    await c.patch(`${podsPath}/${name}/status`, JSON.stringify(failed));
    await c.post(EVENTS, eventBody(name, 'FailedScheduling', 'Scheduling', 'Warning', reason));
    const target = disruptionTargetPatch(pod(victim, 10, node), 'default-scheduler', now);
    await c.patch(`${podsPath}/${victim}/status`, JSON.stringify(target));
    await c.delete(`${podsPath}/${victim}`);
    const note = `Preempted by pod uid-${name} on node ${node}`;
    await c.post(EVENTS, eventBody(victim, 'Preempted', 'Preempting', 'Normal', note, name));
    await c.post(
      `${podsPath}/${name}/binding`,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace: NS },
        target: { apiVersion: 'v1', kind: 'Node', name: node },
      }),
    );
    const bound = `Successfully assigned ${NS}/${name} to ${node}`;
    await c.post(EVENTS, eventBody(name, 'Scheduled', 'Binding', 'Normal', bound));
  };
}
