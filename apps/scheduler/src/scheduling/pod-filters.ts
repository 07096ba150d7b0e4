import type { Pod } from '../framework/types.js';
import { DEFAULT_SCHEDULER_NAME } from '../options/index.js';

/** A pod is assigned once `spec.nodeName` is set; assigned pods count toward their node's usage. */
export function isAssigned(pod: Pod): boolean {
  return (pod.spec.nodeName ?? '') !== '';
}

/** Succeeded and Failed pods hold no resources (the informer's field selector drops them). */
export function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

export function isTerminating(pod: Pod): boolean {
  return pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
}

/** The profile a pod asks for; the apiserver defaults an empty one to `default-scheduler`. */
export function schedulerNameOf(pod: Pod): string {
  return pod.spec.schedulerName || DEFAULT_SCHEDULER_NAME;
}

/** Whether this scheduler (one of `profileNames`) should place the pod. */
export function responsibleForPod(pod: Pod, profileNames: ReadonlySet<string>): boolean {
  return profileNames.has(schedulerNameOf(pod));
}
