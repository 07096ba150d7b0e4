/**
 * LimitRanger's pod totals (podRequests / podLimits): the containers summed, then each init
 * container's larger quantity taken, since init containers run one at a time before the rest.
 */
import { containersOf, initContainersOf, type PodLike } from '../quota/pod-shape.js';
import { addLists, maxLists, type ResourceList } from '../quota/resource-lists.js';

function total(
  pod: PodLike,
  pick: (r: { limits?: ResourceList; requests?: ResourceList }) => ResourceList | undefined,
): ResourceList {
  let sum: ResourceList = {};
  for (const c of containersOf(pod)) sum = addLists(sum, pick(c.resources ?? {}) ?? {});
  for (const c of initContainersOf(pod)) sum = maxLists(sum, pick(c.resources ?? {}) ?? {});
  return sum;
}

export function asPodTotals(pod: PodLike): { requests: ResourceList; limits: ResourceList } {
  return { requests: total(pod, (r) => r.requests), limits: total(pod, (r) => r.limits) };
}
