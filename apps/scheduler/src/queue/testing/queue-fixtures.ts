import type { QueuedPodInfo } from '../../framework/interface.js';
import { PrioritySort } from '../../plugins/priority-sort/priority-sort.js';
import { SchedulingGates } from '../../plugins/scheduling-gates/scheduling-gates.js';
import { FakeClock } from '../clock.js';
import { PriorityQueue } from '../priority-queue.js';

const sort = new PrioritySort();
const gates = new SchedulingGates();

/** A queue with kube's sort and gates on a fake clock (1 s / 10 s backoff, 60 s unschedulable). */
export function setupQueue() {
  const clock = new FakeClock(1_000_000);
  const q = new PriorityQueue({
    less: (a, b) => sort.less(a, b),
    preEnqueue: (pod) => gates.preEnqueue(pod),
    clock,
    initialBackoffMs: 1000,
    maxBackoffMs: 10_000,
    maxInUnschedulableMs: 60_000,
  });
  const where = (name: string) => q.pendingPods().find((p) => p.pod.metadata.name === name)?.queue;
  return { clock, q, where };
}

export async function popNow(q: PriorityQueue): Promise<QueuedPodInfo> {
  const p = await q.pop();
  if (!p) throw new Error('queue closed');
  return p;
}

/** Pops a pod and fails its cycle with `plugins` (none: an error). */
export async function failCycle(
  q: PriorityQueue,
  plugins: string[] = ['NodeResourcesFit'],
): Promise<QueuedPodInfo> {
  const p = await popNow(q);
  const cycle = q.schedulingCycle();
  p.unschedulablePlugins = new Set(plugins);
  q.addUnschedulable(p, cycle);
  q.done(p.pod);
  return p;
}
