import { describe, expect, it } from 'vitest';
import { makePod } from '../framework/testing/fixtures.js';
import { FakeClock } from '../queue/clock.js';
import { PriorityQueue } from '../queue/priority-queue.js';
import { defaultFramework } from '../scheduling/testing/default-framework.js';
import { bindingFor, bindingPath } from './binder.js';
import { TimedQueue } from './timed-queue.js';

function setup() {
  const fwk = defaultFramework();
  const clock = new FakeClock(1_000);
  const inner = new PriorityQueue({
    less: fwk.queueSortLess(),
    preEnqueue: (pod) => fwk.runPreEnqueuePlugins(pod),
    clock,
  });
  return { clock, q: new TimedQueue(inner, () => clock.now()) };
}

describe('TimedQueue', () => {
  it('measures an attempt from its pop and the pod from its first attempt', async () => {
    const { clock, q } = setup();
    const pod = makePod('a');
    q.add(pod);
    const first = await q.pop();
    if (!first) throw new Error('no pod');
    clock.advance(250);
    expect(q.finish(pod)).toEqual({ attemptSeconds: 0.25, sinceFirstAttemptSeconds: 0.25, attempts: 1 });
    q.addUnschedulable(first, q.schedulingCycle());
    q.done(pod);
    clock.advance(10_000);
    q.flushBackoffQCompleted();
    await q.pop();
    clock.advance(500);
    expect(q.finish(pod)).toEqual({ attemptSeconds: 0.5, sinceFirstAttemptSeconds: 10.75, attempts: 2 });
    expect(q.finish(pod)).toBeUndefined();
  });

  it('counts pending pods per queue, gated ones apart', () => {
    const { q } = setup();
    q.add(makePod('a'));
    q.add(makePod('b'));
    q.add(makePod('g', { schedulingGates: ['wait'] }));
    expect(q.pendingCounts()).toEqual({ active: 2, backoff: 0, unschedulable: 0, gated: 1 });
  });
});

describe('DefaultBinder wire form', () => {
  it("posts kube's Binding to the pod's binding subresource", () => {
    const pod = makePod('web', { namespace: 'team', uid: 'u-1' });
    expect(bindingPath(pod)).toBe('/api/v1/namespaces/team/pods/web/binding');
    expect(bindingFor(pod, 'n1')).toEqual({
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'web', namespace: 'team', uid: 'u-1' },
      target: { apiVersion: 'v1', kind: 'Node', name: 'n1' },
    });
  });
});
