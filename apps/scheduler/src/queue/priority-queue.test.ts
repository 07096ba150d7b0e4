import { describe, expect, it } from 'vitest';
import type { QueuedPodInfo } from '../framework/interface.js';
import { makePod } from '../framework/testing/fixtures.js';
import { NODE_ADD } from './scheduling-queue.js';
import { failCycle, popNow, setupQueue as setup } from './testing/queue-fixtures.js';

const pod = makePod;

describe('PriorityQueue ordering', () => {
  it('pops higher priority first, then the earlier enqueued', async () => {
    const { q, clock } = setup();
    for (const [name, priority] of [
      ['low', 1],
      ['high', 10],
      ['mid-a', 5],
      ['mid-b', 5],
    ] as const) {
      q.add(pod(name, { priority }));
      clock.advance(1);
    }
    const order: string[] = [];
    for (let i = 0; i < 4; i++) order.push((await popNow(q)).pod.metadata.name ?? '');
    expect(order).toEqual(['high', 'mid-a', 'mid-b', 'low']);
  });

  it('reorders a queued pod whose priority changes', async () => {
    const { q, clock } = setup();
    q.add(pod('a', { priority: 1 }));
    clock.advance(1);
    q.add(pod('b', { priority: 2 }));
    q.update(pod('a', { priority: 1 }), pod('a', { priority: 3 }));
    expect((await popNow(q)).pod.metadata.name).toBe('a');
  });

  it('counts attempts and scheduling cycles', async () => {
    const { q, clock } = setup();
    q.add(pod('a'));
    const p = await failCycle(q, []);
    expect([p.attempts, q.schedulingCycle(), p.initialAttemptTimestamp]).toEqual([1, 1, 1_000_000]);
    clock.advance(1000);
    q.flushBackoffQCompleted();
    const again = await popNow(q);
    expect([again.attempts, q.schedulingCycle(), again.initialAttemptTimestamp]).toEqual([2, 2, 1_000_000]);
  });
});

describe('PriorityQueue.pop', () => {
  it('waits for a pod', async () => {
    const { q } = setup();
    let got: QueuedPodInfo | undefined;
    const pending = q.pop().then((p) => (got = p));
    await Promise.resolve();
    expect(got).toBeUndefined();
    q.add(pod('late'));
    await pending;
    expect(got?.pod.metadata.name).toBe('late');
  });

  it('gives undefined when aborted, when closed, and after close', async () => {
    const { q } = setup();
    const ac = new AbortController();
    const aborted = q.pop(ac.signal);
    const closed = q.pop();
    ac.abort();
    expect(await aborted).toBeUndefined();
    q.close();
    expect(await closed).toBeUndefined();
    q.add(pod('a'));
    expect(await q.pop()).toBeUndefined();
  });

  it('serves waiters first come first served', async () => {
    const { q } = setup();
    const first = q.pop();
    const second = q.pop();
    q.add(pod('a'));
    q.add(pod('b'));
    expect([(await first)?.pod.metadata.name, (await second)?.pod.metadata.name]).toEqual(['a', 'b']);
  });
});

describe('PriorityQueue failures', () => {
  it('parks a rejected pod in unschedulable, and moves it back on a cluster event', async () => {
    const { q, clock, where } = setup();
    q.add(pod('a'));
    await failCycle(q);
    expect(where('a')).toBe('unschedulable');
    clock.advance(500);
    q.moveAllToActiveOrBackoff(NODE_ADD);
    expect(where('a')).toBe('backoff');
    clock.advance(500);
    q.flushBackoffQCompleted();
    expect(where('a')).toBe('active');
  });

  it('moves a pod whose backoff is over straight to active', async () => {
    const { q, clock, where } = setup();
    q.add(pod('a'));
    await failCycle(q);
    clock.advance(1000);
    q.moveAllToActiveOrBackoff(NODE_ADD);
    expect(where('a')).toBe('active');
  });

  it('honours preCheck', async () => {
    const { q, where } = setup();
    q.add(pod('a'));
    await failCycle(q);
    q.moveAllToActiveOrBackoff(NODE_ADD, () => false);
    expect(where('a')).toBe('unschedulable');
  });

  it('backs off a pod that failed with an error (no rejecting plugin)', async () => {
    const { q, clock, where } = setup();
    q.add(pod('a'));
    await failCycle(q, []);
    expect(where('a')).toBe('backoff');
    clock.advance(999);
    q.flushBackoffQCompleted();
    expect(where('a')).toBe('backoff');
    clock.advance(1);
    q.flushBackoffQCompleted();
    expect(where('a')).toBe('active');
  });

  it('doubles the backoff with each attempt', async () => {
    const { q, clock, where } = setup();
    q.add(pod('a'));
    for (const wait of [1000, 2000, 4000, 8000, 10_000, 10_000]) {
      await failCycle(q, []);
      clock.advance(wait - 1);
      q.flushBackoffQCompleted();
      expect(where('a')).toBe('backoff');
      clock.advance(1);
      q.flushBackoffQCompleted();
      expect(where('a')).toBe('active');
    }
  });

  it('sends a pod to backoff when an event arrived during its cycle', async () => {
    const { q, where } = setup();
    q.add(pod('a'));
    const p = await popNow(q);
    const cycle = q.schedulingCycle();
    q.moveAllToActiveOrBackoff(NODE_ADD);
    p.unschedulablePlugins = new Set(['NodeResourcesFit']);
    q.addUnschedulable(p, cycle);
    expect(where('a')).toBe('backoff');
  });

  it('parks a pod when the last event came before its cycle', async () => {
    const { q, where } = setup();
    q.moveAllToActiveOrBackoff(NODE_ADD);
    q.add(pod('a'));
    await failCycle(q);
    expect(where('a')).toBe('unschedulable');
  });

  it('flushes pods left unschedulable too long', async () => {
    const { q, clock, where } = setup();
    q.add(pod('a'));
    await failCycle(q);
    clock.advance(60_000);
    q.flushUnschedulablePodsLeftover();
    expect(where('a')).toBe('unschedulable');
    clock.advance(1);
    q.flushUnschedulablePodsLeftover();
    expect(where('a')).toBe('active');
  });

  it('runs the flush loops on the clock', async () => {
    const { q, clock, where } = setup();
    q.run();
    q.add(pod('err'));
    await failCycle(q, []);
    q.add(pod('stuck'));
    await failCycle(q);
    clock.advance(1000);
    expect(where('err')).toBe('active');
    expect(where('stuck')).toBe('unschedulable');
    clock.advance(89_000); // the 30 s loop at 90 s is the first to see it past 60 s
    expect(where('stuck')).toBe('active');
    q.close();
    expect(clock.pendingTimers()).toBe(0);
  });
});
