import { describe, expect, it } from 'vitest';
import { SchedulerCache } from '../cache/cache.js';
import { Framework } from '../framework/framework.js';
import type { BindPlugin } from '../framework/interface.js';
import { makeNode, makePod } from '../framework/testing/fixtures.js';
import type { Pod } from '../framework/types.js';
import { defaultSchedulerConfiguration } from '../options/index.js';
import { newInTreeRegistry } from '../plugins/default-registry.js';
import { FakeClock } from '../queue/clock.js';
import { PriorityQueue } from '../queue/priority-queue.js';
import { ASSIGNED_POD_DELETE } from '../queue/scheduling-queue.js';
import { newEventHandlers } from './event-handlers.js';
import { Nominator } from './nominator.js';
import { PodScheduler } from './schedule-one.js';
import { scheduleOne, type SchedulerLoopDeps } from './scheduler-loop.js';

const nominated = (pod: Pod, node: string): Pod => ({
  ...pod,
  status: { ...pod.status, nominatedNodeName: node },
});
const onNode = (n: Nominator, node: string) => n.nominatedPodsForNode(node).map((p) => p.pod.metadata.name);

describe('Nominator', () => {
  it('follows the status of pending pods', () => {
    const n = new Nominator();
    const p = makePod('p');
    n.add(nominated(p, 'n1'));
    expect(onNode(n, 'n1')).toEqual(['p']);
    n.update(nominated(p, 'n1'), nominated(p, 'n2'));
    expect([onNode(n, 'n1'), onNode(n, 'n2')]).toEqual([[], ['p']]);
    n.update(nominated(p, 'n2'), p);
    expect(n.nominatedNodeOf(p)).toBeUndefined();
  });

  it("keeps each node's list in step as pods are nominated, moved, re-nominated and dropped", () => {
    const n = new Nominator();
    const [a, b] = [makePod('a'), makePod('b')];
    expect(onNode(n, 'n1')).toEqual([]);
    n.addNominatedPod(a, 'n1');
    const first = n.nominatedPodsForNode('n1');
    n.addNominatedPod(b, 'n1');
    expect(onNode(n, 'n1')).toEqual(['a', 'b']);
    // A list handed out earlier is not changed under its holder.
    expect(first.map((p) => p.pod.metadata.name)).toEqual(['a']);
    const relabelled = { ...a, metadata: { ...a.metadata, labels: { v: '2' } } };
    n.addNominatedPod(relabelled, 'n1');
    expect(n.nominatedPodsForNode('n1').map((p) => p.pod.metadata.labels)).toEqual([undefined, { v: '2' }]);
    n.addNominatedPod(b, 'n2');
    expect([onNode(n, 'n1'), onNode(n, 'n2')]).toEqual([['a'], ['b']]);
    n.delete(a);
    n.addNominatedPod(b, '');
    expect([onNode(n, 'n1'), onNode(n, 'n2'), n.size()]).toEqual([[], [], 0]);
  });

  it("hands out a node's cell, kept in step in place until the deleted node is forgotten", () => {
    const n = new Nominator();
    const [a, b] = [makePod('a'), makePod('b')];
    const cell = n.nominationsOf('n1');
    const names = () => cell.pods.map((p) => p.pod.metadata.name);
    expect([names(), cell.dead]).toEqual([[], false]);
    n.addNominatedPod(a, 'n1');
    n.addNominatedPod(b, 'n1');
    expect(names()).toEqual(['a', 'b']);
    n.addNominatedPod(a, 'n2');
    n.delete(b);
    expect([names(), n.nominationsOf('n1')]).toEqual([[], cell]);
    // A node deleted while pods are nominated to it keeps its cell; an empty one goes.
    const n2 = n.nominationsOf('n2');
    n.forgetNode('n2');
    expect([n2.dead, n.nominationsOf('n2')]).toEqual([false, n2]);
    n.forgetNode('n1');
    expect(cell.dead).toBe(true);
    n.addNominatedPod(b, 'n1');
    expect(names()).toEqual([]);
    expect(n.nominationsOf('n1').pods.map((p) => p.pod.metadata.name)).toEqual(['b']);
  });

  it("keeps preemption's nomination through updates that predate its status patch", () => {
    const n = new Nominator();
    const p = makePod('p');
    n.addNominatedPod(p, 'n1');
    n.update(p, { ...p, metadata: { ...p.metadata, labels: { x: 'y' } } });
    expect(n.nominatedNodeOf(p)).toBe('n1');
    n.delete(p);
    expect(n.size()).toBe(0);
  });

  it('is fed by the event handlers: pending pods in, bound or deleted pods out', () => {
    const n = new Nominator();
    const cache = new SchedulerCache();
    const queue = new PriorityQueue({ less: () => false, clock: new FakeClock() });
    const h = newEventHandlers(cache, queue, new Set(['default-scheduler']), n);
    const p = nominated(makePod('p'), 'n1');
    h.onPodAdd(p);
    expect(onNode(n, 'n1')).toEqual(['p']);
    h.onPodUpdate(p, { ...p, spec: { ...p.spec, nodeName: 'n1' } });
    expect(n.size()).toBe(0);
    const q = nominated(makePod('q'), 'n1');
    h.onPodAdd(q);
    h.onPodDelete(q);
    expect(n.size()).toBe(0);
  });
});

describe('scheduleOne with DefaultPreemption', () => {
  it('nominates the preemptor, reports the node for its status, and forgets it once placed', async () => {
    const nominator = new Nominator();
    const profile = defaultSchedulerConfiguration().profiles[0];
    if (!profile) throw new Error('no profile');
    const binder: BindPlugin = { name: 'DefaultBinder', bind: () => Promise.resolve(undefined) };
    const fwk = Framework.fromProfile(
      profile,
      newInTreeRegistry().register('DefaultBinder', () => binder),
      undefined,
      {
        nominator,
      },
    );
    const cache = new SchedulerCache();
    cache.addNode(makeNode('n1', { cpu: '2' }));
    const low = makePod('low', { nodeName: 'n1', requests: { cpu: '2' }, priority: 0 });
    cache.addPod(low);
    const clock = new FakeClock();
    const queue = new PriorityQueue({ less: fwk.queueSortLess(), clock });
    const failures: string[] = [];
    const deps: SchedulerLoopDeps = {
      queue,
      cache,
      nominator,
      frameworks: new Map([[fwk.profileName, fwk]]),
      podScheduler: new PodScheduler({ percentageOfNodesToScore: 0 }),
      onFailure: (pod, _reason, message, _profile, nnn) =>
        failures.push(`${pod.metadata.name} ${nnn} ${message}`),
    };
    const high = makePod('high', { requests: { cpu: '2' }, priority: 100 });
    queue.add(high);
    await scheduleOne(deps);
    expect(failures).toEqual(['high n1 0/1 nodes are available: 1 Insufficient cpu.']);
    expect(nominator.nominatedNodeOf(high)).toBe('n1');
    // The victim's deletion frees the node; the preemptor is placed and no longer nominated.
    cache.removePod(low);
    queue.moveAllToActiveOrBackoff(ASSIGNED_POD_DELETE);
    clock.advance(60_000);
    queue.flushBackoffQCompleted();
    const bindings = new Set<Promise<void>>();
    await scheduleOne(deps, undefined, bindings);
    await Promise.all([...bindings]);
    expect(cache.isAssumed(high)).toBe(true);
    expect(cache.nodeInfo('n1')?.pods.has('uid-high')).toBe(true);
    expect(nominator.size()).toBe(0);
  });
});
