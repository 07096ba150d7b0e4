import { describe, expect, it } from 'vitest';
import { makePod } from '../framework/testing/fixtures.js';
import type { Pod } from '../framework/types.js';
import { NODE_ADD } from './scheduling-queue.js';
import { failCycle, popNow, setupQueue as setup } from './testing/queue-fixtures.js';

const pod = makePod;

describe('PriorityQueue add, update and delete', () => {
  it('holds gated pods until their gates are removed', async () => {
    const { q, clock, where } = setup();
    const gated = pod('g', { schedulingGates: ['example.com/hold'] });
    q.add(gated);
    expect(where('g')).toBe('unschedulable');
    q.moveAllToActiveOrBackoff(NODE_ADD);
    clock.advance(3_600_000);
    q.flushUnschedulablePodsLeftover();
    expect(where('g')).toBe('unschedulable');
    q.update(gated, pod('g'));
    expect(where('g')).toBe('active');
  });

  it('retries an unschedulable pod when its spec changes, not when only its status does', async () => {
    const { q, where } = setup();
    const a = pod('a');
    q.add(a);
    await failCycle(q);
    const statusOnly: Pod = { ...a, status: { phase: 'Pending', conditions: [] } };
    q.update(a, statusOnly);
    expect(where('a')).toBe('unschedulable');
    q.update(statusOnly, pod('a', { tolerations: [{ operator: 'Exists' }] }));
    expect(where('a')).toBe('backoff');
  });

  it('removes a pod from whichever queue holds it', async () => {
    const { q, where } = setup();
    q.add(pod('a'));
    q.add(pod('b'));
    q.add(pod('c'));
    await failCycle(q, []); // a → backoff
    await failCycle(q); // b → unschedulable
    for (const name of ['a', 'b', 'c']) q.delete(pod(name));
    expect(q.pendingPods()).toEqual([]);
    expect(where('a')).toBeUndefined();
  });

  it('drops a pod deleted during its cycle', async () => {
    const { q } = setup();
    q.add(pod('a'));
    const p = await popNow(q);
    q.delete(p.pod);
    p.unschedulablePlugins = new Set(['X']);
    q.addUnschedulable(p, q.schedulingCycle());
    q.done(p.pod);
    expect(q.pendingPods()).toEqual([]);
    expect(q.inFlightCount()).toBe(0);
  });

  it('retries a pod updated during its cycle with the newest object, after a backoff', async () => {
    const { q, where } = setup();
    q.add(pod('a'));
    const p = await popNow(q);
    q.update(p.pod, pod('a', { priority: 7 }));
    q.add(pod('a', { priority: 8 })); // a resync during the cycle does not queue it twice
    expect(q.pendingPods()).toEqual([]);
    p.unschedulablePlugins = new Set(['X']);
    q.addUnschedulable(p, q.schedulingCycle());
    q.done(p.pod);
    expect(where('a')).toBe('backoff');
    expect(q.pendingPods()[0]?.pod.spec.priority).toBe(8);
  });

  it('re-adding a waiting pod starts it afresh in active', async () => {
    const { q, where } = setup();
    q.add(pod('a'));
    await failCycle(q);
    q.add(pod('a'));
    expect(where('a')).toBe('active');
    expect((await popNow(q)).attempts).toBe(1);
  });

  it('does not queue a pod twice when it is put back while already queued', async () => {
    const { q } = setup();
    q.add(pod('a'));
    const p = await popNow(q);
    q.done(p.pod);
    q.add(pod('a'));
    p.unschedulablePlugins = new Set(['X']);
    q.addUnschedulable(p, q.schedulingCycle());
    expect(q.pendingPods().map((e) => e.queue)).toEqual(['active']);
  });
});
