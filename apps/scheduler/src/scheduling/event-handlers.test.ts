import { describe, expect, it } from 'vitest';
import { SchedulerCache } from '../cache/cache.js';
import { makeNode, makePod } from '../framework/testing/fixtures.js';
import type { Pod } from '../framework/types.js';
import { FakeClock } from '../queue/clock.js';
import { PriorityQueue } from '../queue/priority-queue.js';
import { podWithClaims } from '../framework/testing/volumes.js';
import { storageEvent } from '../runtime/volume-informers.js';
import { newEventHandlers, nodeSchedulingPropertiesChanged } from './event-handlers.js';

function setup() {
  const cache = new SchedulerCache();
  const clock = new FakeClock();
  const queue = new PriorityQueue({ less: () => false, clock });
  const h = newEventHandlers(cache, queue, new Set(['default-scheduler']));
  const queued = () => queue.pendingPods().map((p) => `${p.pod.metadata.name}:${p.queue}`);
  return { cache, clock, queue, h, queued };
}

/** Pops the next pod and fails it as unschedulable. */
async function parkUnschedulable(queue: PriorityQueue): Promise<void> {
  const p = await queue.pop();
  if (!p) throw new Error('empty');
  p.unschedulablePlugins = new Set(['NodeResourcesFit']);
  queue.addUnschedulable(p, queue.schedulingCycle());
  queue.done(p.pod);
}

describe('event handlers', () => {
  it('moves unschedulable pods with claims, and only those, on storage object changes', async () => {
    const { h, queue, queued } = setup();
    h.onPodAdd(podWithClaims('claims', ['data']));
    h.onPodAdd(makePod('plain'));
    await parkUnschedulable(queue);
    await parkUnschedulable(queue);
    h.onVolumeObjectChange(storageEvent('PersistentVolume', 'Add'));
    expect(queued().sort()).toEqual(['claims:backoff', 'plain:unschedulable']);
  });

  it('queues pending pods of its profiles only', () => {
    const { h, queued } = setup();
    h.onPodAdd(makePod('mine'));
    h.onPodAdd(makePod('named', { schedulerName: 'default-scheduler' }));
    h.onPodAdd(makePod('other', { schedulerName: 'someone-else' }));
    h.onPodAdd(makePod('done', { phase: 'Succeeded' }));
    expect(queued()).toEqual(['mine:active', 'named:active']);
  });

  it('counts assigned pods in the cache and releases them on delete', () => {
    const { h, cache } = setup();
    h.onNodeAdd(makeNode('n1'));
    const p = makePod('a', { nodeName: 'n1', requests: { cpu: '1' } });
    h.onPodAdd(p);
    expect(cache.nodeInfo('n1')?.requested.milliCPU).toBe(1000);
    h.onPodDelete(p);
    expect(cache.nodeInfo('n1')?.requested.milliCPU).toBe(0);
  });

  it('moves a pod from the queue to the cache when it gets bound', () => {
    const { h, cache, queued } = setup();
    const pending = makePod('a', { requests: { cpu: '1' } });
    h.onPodAdd(pending);
    const bound: Pod = { ...pending, spec: { ...pending.spec, nodeName: 'n1' } };
    h.onPodUpdate(pending, bound);
    expect(queued()).toEqual([]);
    expect(cache.nodeInfo('n1')?.requested.milliCPU).toBe(1000);
  });

  it('treats an assigned pod turning terminal as a delete', () => {
    const { h, cache } = setup();
    const running = makePod('a', { nodeName: 'n1', requests: { cpu: '1' }, phase: 'Running' });
    h.onPodAdd(running);
    h.onPodUpdate(running, { ...running, status: { phase: 'Succeeded' } });
    expect(cache.podCount()).toBe(0);
  });

  it('drops a pending pod handed to another scheduler', () => {
    const { h, queued } = setup();
    const p = makePod('a');
    h.onPodAdd(p);
    h.onPodUpdate(p, makePod('a', { schedulerName: 'other' }));
    expect(queued()).toEqual([]);
  });

  it.each([
    ['a node is added', (h: ReturnType<typeof setup>['h']) => h.onNodeAdd(makeNode('n2')), 'a:active'],
    [
      'an assigned pod is deleted',
      (h: ReturnType<typeof setup>['h']) => h.onPodDelete(makePod('x', { nodeName: 'n1' })),
      'a:active',
    ],
    [
      'a node is uncordoned',
      (h: ReturnType<typeof setup>['h']) =>
        h.onNodeUpdate(makeNode('n1', { unschedulable: true }), makeNode('n1')),
      'a:active',
    ],
    [
      'a node only changes status conditions',
      (h: ReturnType<typeof setup>['h']) => h.onNodeUpdate(makeNode('n1'), makeNode('n1')),
      'a:unschedulable',
    ],
  ])('retries unschedulable pods when %s', async (_name, event, want) => {
    const s = setup();
    s.h.onPodAdd(makePod('a'));
    await parkUnschedulable(s.queue);
    s.clock.advance(10_000);
    event(s.h);
    expect(s.queued()).toEqual([want]);
  });
});

describe('event handlers: pods bound or relabelled', () => {
  const wantsDb: Pod = {
    ...makePod('waits'),
    spec: {
      ...makePod('waits').spec,
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'zone' },
          ],
        },
      },
    },
  };

  async function parked(pod: Pod, plugin: string) {
    const s = setup();
    s.h.onPodAdd(pod);
    const p = await s.queue.pop();
    if (!p) throw new Error('empty');
    p.unschedulablePlugins = new Set([plugin]);
    s.queue.addUnschedulable(p, s.queue.schedulingCycle());
    s.queue.done(p.pod);
    s.clock.advance(10_000);
    return s;
  }

  it('retries a pod whose required affinity the newly bound pod matches, and only that', async () => {
    const s = await parked(wantsDb, 'InterPodAffinity');
    s.h.onPodAdd(makePod('web', { nodeName: 'n1', labels: { app: 'web' } }));
    expect(s.queued()).toEqual(['waits:unschedulable']);
    s.h.onPodAdd(makePod('db', { nodeName: 'n1', labels: { app: 'db' } }));
    expect(s.queued()).toEqual(['waits:active']);
  });

  it('retries it when an assigned pod is relabelled to match', async () => {
    const s = await parked(wantsDb, 'InterPodAffinity');
    const before = makePod('x', { nodeName: 'n1', labels: { app: 'web' } });
    s.h.onPodAdd(before);
    expect(s.queued()).toEqual(['waits:unschedulable']);
    s.h.onPodUpdate(before, makePod('x', { nodeName: 'n1', labels: { app: 'db' } }));
    expect(s.queued()).toEqual(['waits:active']);
  });

  it('retries a pod topology spreading rejected when a pod of its namespace is bound', async () => {
    const s = await parked(makePod('spread'), 'PodTopologySpread');
    s.h.onPodAdd(makePod('elsewhere', { nodeName: 'n1', namespace: 'other' }));
    expect(s.queued()).toEqual(['spread:unschedulable']);
    s.h.onPodAdd(makePod('here', { nodeName: 'n1' }));
    expect(s.queued()).toEqual(['spread:active']);
  });

  it('leaves pods other plugins rejected where they are', async () => {
    const s = await parked(makePod('big'), 'NodeResourcesFit');
    s.h.onPodAdd(makePod('here', { nodeName: 'n1' }));
    expect(s.queued()).toEqual(['big:unschedulable']);
  });
});

describe('nodeSchedulingPropertiesChanged', () => {
  it.each([
    ['nothing', makeNode('n'), makeNode('n'), false],
    ['uncordoned', makeNode('n', { unschedulable: true }), makeNode('n'), true],
    ['cordoned', makeNode('n'), makeNode('n', { unschedulable: true }), false],
    ['allocatable', makeNode('n'), makeNode('n', { cpu: '16' }), true],
    ['labels', makeNode('n'), makeNode('n', { labels: { a: 'b' } }), true],
    ['taints', makeNode('n', { taints: [{ key: 'k', effect: 'NoSchedule' }] }), makeNode('n'), true],
  ])('%s → %s', (_name, a, b, want) => {
    expect(nodeSchedulingPropertiesChanged(a, b)).toBe(want);
  });
});
