import type { PluginFactory, QueuedPodInfo, QueueSortPlugin } from '../../framework/interface.js';
import type { Pod } from '../../framework/types.js';

export const NAME = 'PrioritySort';

/** A pod's priority: `spec.priority`, 0 when unset (corev1helpers.PodPriority). */
export function podPriority(pod: Pod): number {
  return pod.spec.priority ?? 0;
}

/** Higher priority first; among equals, the pod that entered the queue earlier. */
export class PrioritySort implements QueueSortPlugin {
  readonly name = NAME;

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const p1 = podPriority(a.pod);
    const p2 = podPriority(b.pod);
    return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
  }
}

export const create: PluginFactory = () => new PrioritySort();
