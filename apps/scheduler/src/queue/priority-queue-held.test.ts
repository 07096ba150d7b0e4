import { describe, expect, it } from 'vitest';
import { makePod } from '../framework/testing/fixtures.js';
import { Status } from '../framework/status.js';
import type { Pod } from '../framework/types.js';
import { FakeClock } from './clock.js';
import { PriorityQueue } from './priority-queue.js';
import { ASSIGNED_POD_DELETE, PREEMPTION_DONE } from './scheduling-queue.js';
import { failCycle } from './testing/queue-fixtures.js';

/** A queue whose PreEnqueue holds back the pods named in `held` (as a running preemption does). */
function setup() {
  const clock = new FakeClock(1_000_000);
  const held = new Set<string>();
  const q = new PriorityQueue({
    less: (a, b) => a.timestamp < b.timestamp,
    preEnqueue: (pod: Pod) => (held.has(pod.metadata.name ?? '') ? Status.unresolvable('held') : undefined),
    clock,
    initialBackoffMs: 1000,
    maxBackoffMs: 10_000,
  });
  const where = (name: string) => q.pendingPods().find((p) => p.pod.metadata.name === name)?.queue;
  return { clock, q, held, where };
}

describe('PriorityQueue.reconsiderHeld', () => {
  it('keeps a preemptor out of the active queue while held, whatever events come, then requeues it', async () => {
    const { q, held, where, clock } = setup();
    q.add(makePod('p'));
    held.add('p'); // its cycle started a preemption
    await failCycle(q);
    expect(where('p')).toBe('unschedulable');
    q.moveAllToActiveOrBackoff(ASSIGNED_POD_DELETE);
    expect(where('p')).toBe('unschedulable');
    held.delete('p'); // the preemption's deletions are done
    q.reconsiderHeld(makePod('p'), PREEMPTION_DONE);
    // Its backoff from the failed attempt still applies, as for a cluster event.
    expect(where('p')).toBe('backoff');
    clock.advance(1000);
    q.flushBackoffQCompleted();
    expect(where('p')).toBe('active');
  });

  it('goes straight to active once the backoff is over, and stays held while PreEnqueue still says so', async () => {
    const { q, held, where, clock } = setup();
    q.add(makePod('p'));
    held.add('p');
    await failCycle(q);
    q.reconsiderHeld(makePod('p'), PREEMPTION_DONE);
    expect(where('p')).toBe('unschedulable');
    clock.advance(5000);
    held.delete('p');
    q.reconsiderHeld(makePod('p'), PREEMPTION_DONE);
    expect(where('p')).toBe('active');
  });

  it('leaves pods that are not held where they are', async () => {
    const { q, where } = setup();
    q.add(makePod('a'));
    await failCycle(q);
    expect(where('a')).toBe('unschedulable');
    q.reconsiderHeld(makePod('a'), PREEMPTION_DONE);
    q.reconsiderHeld(makePod('missing'), PREEMPTION_DONE);
    expect(where('a')).toBe('unschedulable');
  });
});
