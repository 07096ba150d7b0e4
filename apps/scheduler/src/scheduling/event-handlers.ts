import type { SchedulerCache } from '../cache/cache.js';
import { podAffinityTerms, podMatchesAllAffinityTerms } from '../framework/affinity-terms.js';
import { EXTENDER_NAME } from '../extender/extenders.js';
import type { QueuedPodInfo } from '../framework/interface.js';
import type { Node, Pod } from '../framework/types.js';
import {
  ASSIGNED_POD_ADD,
  ASSIGNED_POD_DELETE,
  ASSIGNED_POD_UPDATE,
  type ClusterEvent,
  NODE_ADD,
  NODE_UPDATE,
  type SchedulingQueue,
} from '../queue/scheduling-queue.js';
import { podClaims } from '../plugins/helper/volumes.js';
import type { Nominator } from './nominator.js';
import { isAssigned, isTerminal, responsibleForPod } from './pod-filters.js';

export interface EventHandlers {
  onPodAdd(pod: Pod): void;
  onPodUpdate(oldPod: Pod, newPod: Pod): void;
  onPodDelete(pod: Pod): void;
  onNodeAdd(node: Node): void;
  onNodeUpdate(oldNode: Node, newNode: Node): void;
  onNodeDelete(node: Node): void;
  /** A PV, PVC, StorageClass or CSINode was added or changed. */
  onVolumeObjectChange(event: ClusterEvent): void;
}

const json = (v: unknown) => JSON.stringify(v ?? null);

/**
 * Whether a node change can let a waiting pod fit (kube's nodeSchedulingPropertiesChange):
 * cordoning lifted, allocatable, labels or taints changed.
 */
export function nodeSchedulingPropertiesChanged(oldNode: Node, newNode: Node): boolean {
  if (!!oldNode.spec?.unschedulable && !newNode.spec?.unschedulable) return true;
  if (json(oldNode.status?.allocatable) !== json(newNode.status?.allocatable)) return true;
  if (json(oldNode.metadata.labels) !== json(newNode.metadata.labels)) return true;
  return json(oldNode.spec?.taints) !== json(newNode.spec?.taints);
}

/**
 * Whether a newly assigned (or relabelled) pod can let an unschedulable pod fit: it matches all of
 * that pod's required affinity terms (kube's getUnschedulablePodsWithMatchingAffinityTerm), or
 * that pod was rejected by topology spreading in the same namespace, where one more pod in a
 * domain can raise the minimum.
 */
export function assignedPodMayHelp(assigned: Pod): (p: QueuedPodInfo) => boolean {
  return (p) => {
    const pod = p.pod;
    // Extenders declare no events: any may help a pod they rejected (kube requeues it on all).
    if (p.unschedulablePlugins.has(EXTENDER_NAME)) return true;
    if (
      p.unschedulablePlugins.has('PodTopologySpread') &&
      (pod.metadata.namespace ?? '') === (assigned.metadata.namespace ?? '')
    ) {
      return true;
    }
    if (!pod.spec.affinity?.podAffinity) return false;
    try {
      return podMatchesAllAffinityTerms(podAffinityTerms(pod).requiredAffinity, assigned);
    } catch {
      return false;
    }
  };
}

/**
 * kube's addAllEventHandlers, minus the informers: routes pod and node watch events to the cache
 * (assigned pods, nodes) and the queue (pending pods of this scheduler's profiles), and moves
 * unschedulable pods back when an event frees room. Feed it the pod informer's events as they come
 * (its list should use `fieldSelector=status.phase!=Succeeded,status.phase!=Failed`).
 */
export function newEventHandlers(
  cache: SchedulerCache,
  queue: SchedulingQueue,
  profileNames: ReadonlySet<string>,
  /** Tracks pending pods' nominated nodes (kube's queue does it in Add/Update/Delete). */
  nominator?: Nominator,
): EventHandlers {
  const pending = (pod: Pod) => !isAssigned(pod) && !isTerminal(pod) && responsibleForPod(pod, profileNames);
  const assignedChanged = (event: ClusterEvent, pod: Pod) =>
    queue.movePodsAffectedBy(event, assignedPodMayHelp(pod));
  const assignedDeleted = (pod: Pod) => {
    cache.removePod(pod);
    queue.moveAllToActiveOrBackoff(ASSIGNED_POD_DELETE);
  };

  return {
    onPodAdd(pod) {
      if (isTerminal(pod)) return;
      if (isAssigned(pod)) {
        cache.addPod(pod);
        assignedChanged(ASSIGNED_POD_ADD, pod);
      } else if (pending(pod)) {
        nominator?.add(pod);
        queue.add(pod);
      }
    },
    onPodUpdate(oldPod, newPod) {
      if (isAssigned(newPod)) {
        // Bound (by us or anyone): it leaves the queue and starts counting on its node.
        if (!isAssigned(oldPod)) {
          queue.delete(oldPod);
          nominator?.delete(oldPod);
        }
        if (isTerminal(newPod)) {
          assignedDeleted(newPod);
          return;
        }
        cache.updatePod(oldPod, newPod);
        if (!isAssigned(oldPod)) assignedChanged(ASSIGNED_POD_ADD, newPod);
        else if (json(oldPod.metadata.labels) !== json(newPod.metadata.labels)) {
          assignedChanged(ASSIGNED_POD_UPDATE, newPod);
        }
        return;
      }
      if (pending(newPod)) {
        nominator?.update(oldPod, newPod);
        queue.update(oldPod, newPod);
      } else {
        nominator?.delete(newPod);
        queue.delete(newPod);
      }
    },
    onPodDelete(pod) {
      if (isAssigned(pod)) assignedDeleted(pod);
      else {
        nominator?.delete(pod);
        queue.delete(pod);
      }
    },
    onNodeAdd(node) {
      cache.addNode(node);
      queue.moveAllToActiveOrBackoff(NODE_ADD);
    },
    onNodeUpdate(oldNode, newNode) {
      cache.updateNode(oldNode, newNode);
      if (nodeSchedulingPropertiesChanged(oldNode, newNode)) queue.moveAllToActiveOrBackoff(NODE_UPDATE);
    },
    onNodeDelete(node) {
      cache.removeNode(node);
      nominator?.forgetNode(node.metadata.name);
    },
    // Only pods with claims wait for storage objects (kube's volume plugins' EventsToRegister).
    onVolumeObjectChange(event) {
      queue.movePodsAffectedBy(event, (p) => podClaims(p.pod).length > 0);
    },
  };
}
