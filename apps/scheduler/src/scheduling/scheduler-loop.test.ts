import { describe, expect, it, vi } from 'vitest';
import { SchedulerCache } from '../cache/cache.js';
import type { Framework } from '../framework/framework.js';
import type { BindPlugin } from '../framework/interface.js';
import { Status, type MaybeStatus } from '../framework/status.js';
import { makeNode, makePod } from '../framework/testing/fixtures.js';
import type { Pod } from '../framework/types.js';
import { FakeClock } from '../queue/clock.js';
import { PriorityQueue } from '../queue/priority-queue.js';
import { PodScheduler } from './schedule-one.js';
import { runSchedulerLoop, scheduleOne, type SchedulerLoopDeps } from './scheduler-loop.js';
import { defaultFramework } from './testing/default-framework.js';

function setup(bind: BindPlugin['bind'] = () => Promise.resolve<MaybeStatus>(undefined)) {
  const events: string[] = [];
  const bound: string[] = [];
  const fwk: Framework = defaultFramework((state, pod, node, signal) => {
    bound.push(`${pod.metadata.name}→${node}`);
    return bind(state, pod, node, signal);
  });
  const cache = new SchedulerCache();
  const queue = new PriorityQueue({ less: fwk.queueSortLess(), clock: new FakeClock() });
  const deps: SchedulerLoopDeps = {
    queue,
    cache,
    frameworks: new Map([[fwk.profileName, fwk]]),
    podScheduler: new PodScheduler({ percentageOfNodesToScore: 0 }),
    onScheduled: (pod, node) => events.push(`Scheduled ${pod.metadata.name} ${node}`),
    onFailure: (pod, reason, message) => events.push(`${reason} ${pod.metadata.name}: ${message}`),
    onSkipped: (pod, why) => events.push(`skipped ${pod.metadata.name}: ${why}`),
  };
  const where = () => queue.pendingPods().map((p) => `${p.pod.metadata.name}:${p.queue}`);
  return { deps, cache, queue, events, bound, where };
}

async function once(deps: SchedulerLoopDeps): Promise<void> {
  const bindings = new Set<Promise<void>>();
  expect(await scheduleOne(deps, undefined, bindings)).toBe(true);
  await Promise.all([...bindings]);
}

describe('scheduleOne', () => {
  it('assumes, binds and reports a scheduled pod', async () => {
    const s = setup();
    s.cache.addNode(makeNode('n1'));
    const pod = makePod('a', { requests: { cpu: '1' } });
    s.queue.add(pod);
    await once(s.deps);
    expect(s.bound).toEqual(['a→n1']);
    expect(s.events).toEqual(['Scheduled a n1']);
    expect([s.cache.isAssumed(pod), s.cache.nodeInfo('n1')?.requested.milliCPU]).toEqual([true, 1000]);
    expect(s.queue.inFlightCount()).toBe(0);
  });

  it('times the algorithm of cycles that found a node, and only those', async () => {
    const s = setup();
    const observed: number[] = [];
    const deps = { ...s.deps, observeAlgorithm: (seconds: number) => observed.push(seconds) };
    s.cache.addNode(makeNode('n1', { cpu: '1' }));
    s.queue.add(makePod('fits', { requests: { cpu: '500m' } }));
    await once(deps);
    s.queue.add(makePod('too-big', { requests: { cpu: '2' } }));
    await once(deps);
    expect(observed).toHaveLength(1);
    expect(observed[0]).toBeGreaterThanOrEqual(0);
    expect(observed[0]).toBeLessThan(1);
  });

  it('parks an unschedulable pod and reports the FitError', async () => {
    const s = setup();
    s.cache.addNode(makeNode('n1', { cpu: '1' }));
    s.queue.add(makePod('a', { requests: { cpu: '2' } }));
    await once(s.deps);
    expect(s.events).toEqual([
      'Unschedulable a: 0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..',
    ]);
    expect(s.where()).toEqual(['a:unschedulable']);
  });

  it('backs off when there are no nodes', async () => {
    const s = setup();
    s.queue.add(makePod('a'));
    await once(s.deps);
    expect(s.events).toEqual(['Unschedulable a: no nodes available to schedule pods']);
    expect(s.where()).toEqual(['a:backoff']);
  });

  it('forgets the pod and backs it off when binding fails', async () => {
    const s = setup(() =>
      Promise.resolve(Status.fromError(new Error('pod a is already assigned to node "n9"'))),
    );
    s.cache.addNode(makeNode('n1'));
    const pod = makePod('a', { requests: { cpu: '1' } });
    s.queue.add(pod);
    await once(s.deps);
    expect(s.events).toEqual(['SchedulerError a: Binding rejected: pod a is already assigned to node "n9"']);
    expect([s.cache.isAssumed(pod), s.cache.podCount()]).toEqual([false, 0]);
    expect(s.where()).toEqual(['a:backoff']);
  });

  it('reports a binder that throws as a binding failure', async () => {
    const s = setup(() => Promise.reject(new Error('connection refused')));
    s.cache.addNode(makeNode('n1'));
    s.queue.add(makePod('a'));
    await once(s.deps);
    expect(s.events).toEqual(['SchedulerError a: Binding rejected: connection refused']);
  });

  it('backs off a pod the cache already holds as bound', async () => {
    const s = setup();
    s.cache.addNode(makeNode('n1'));
    s.cache.addPod(makePod('a', { nodeName: 'n1' }));
    s.queue.add(makePod('a'));
    await once(s.deps);
    expect(s.events).toEqual(["SchedulerError a: pod uid-a is in the cache, so can't be assumed"]);
    expect([s.bound, s.where()]).toEqual([[], ['a:backoff']]);
  });

  it.each<[string, Pod, string]>([
    [
      'a pod for another profile',
      makePod('a', { schedulerName: 'other' }),
      'skipped a: no profile for scheduler name "other"',
    ],
    [
      'a terminating pod',
      makePod('a', { deletionTimestamp: '2024-01-01T00:00:00Z' }),
      'skipped a: terminating or assumed',
    ],
  ])('skips %s', async (_name, pod, event) => {
    const s = setup();
    s.cache.addNode(makeNode('n1'));
    s.queue.add(pod);
    await once(s.deps);
    expect([s.events, s.bound, s.queue.inFlightCount()]).toEqual([[event], [], 0]);
  });
});

describe('runSchedulerLoop', () => {
  it('schedules until aborted and waits for bindings in progress', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const s = setup(async () => {
      await gate;
      return undefined;
    });
    s.cache.addNode(makeNode('n1'));
    s.queue.add(makePod('a'));
    s.queue.add(makePod('b'));
    const ac = new AbortController();
    const loop = runSchedulerLoop(s.deps, ac.signal);
    await new Promise((r) => setTimeout(r, 10));
    expect(s.bound.sort()).toEqual(['a→n1', 'b→n1']);
    ac.abort();
    let finished = false;
    void loop.then(() => (finished = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(finished).toBe(false);
    release();
    await loop;
    expect(s.events.sort()).toEqual(['Scheduled a n1', 'Scheduled b n1']);
  });

  it('lets I/O callbacks run between cycles of a backlog', async () => {
    const s = setup();
    s.cache.addNode(makeNode('n1', { pods: '1000' }));
    for (let i = 0; i < 50; i++) s.queue.add(makePod(`p${i}`));
    const ac = new AbortController();
    // A macrotask queued before the loop starts: it must run before the backlog is done.
    let boundWhenIORan = -1;
    setImmediate(() => (boundWhenIORan = s.bound.length));
    const loop = runSchedulerLoop(s.deps, ac.signal);
    // However loaded the machine, the backlog drains; only then is the loop stopped.
    await vi.waitFor(() => expect(s.bound).toHaveLength(50), { timeout: 10_000 });
    ac.abort();
    await loop;
    expect(boundWhenIORan).toBeGreaterThanOrEqual(0);
    expect(boundWhenIORan).toBeLessThan(50);
  });
});
