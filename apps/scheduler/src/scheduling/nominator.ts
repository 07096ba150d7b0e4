import type { PodNominator } from '../framework/interface.js';
import { newPodInfo, type PodInfo } from '../framework/node-info.js';
import { podUid, type Pod } from '../framework/types.js';

/** `status.nominatedNodeName`, '' when unset. */
export function nominatedNodeName(pod: Pod): string {
  const n = pod.status?.['nominatedNodeName'];
  return typeof n === 'string' ? n : '';
}

/**
 * kube's nominator: pending pods by the node they are nominated to, from their status or set by
 * preemption before the API server has it. Fed by the pod event handlers (pending pods only) and
 * by the scheduling loop.
 */
const NONE: readonly PodInfo[] = Object.freeze([]);

interface Cell {
  readonly owner: PodNominator;
  pods: readonly PodInfo[];
  minPriority: number;
  dead: boolean;
}

function minPriorityOf(pods: readonly PodInfo[]): number {
  let min = Infinity;
  for (const p of pods) min = Math.min(min, p.pod.spec.priority ?? 0);
  return min;
}

export class Nominator implements PodNominator {
  private readonly byNode = new Map<string, Map<string, PodInfo>>();
  /**
   * Each node's pods as a list, rebuilt when that node's nominations change: every filter call
   * asks for its node's list, so a cycle over thousands of nodes allocates none. A node's cell
   * is changed in place and NodeInfos hold it (`nominationsOf`), so it stays until the node is
   * deleted (`forgetNode`), also while empty: one per node name asked for.
   */
  private readonly cells = new Map<string, Cell>();
  private readonly nodeOf = new Map<string, string>();

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.cells.get(nodeName)?.pods ?? NONE;
  }

  nominationsOf(nodeName: string): Cell {
    let c = this.cells.get(nodeName);
    if (!c) this.cells.set(nodeName, (c = { owner: this, pods: NONE, minPriority: Infinity, dead: false }));
    return c;
  }

  /** The node was deleted: its cell goes unless pods are still nominated to it. */
  forgetNode(nodeName: string): void {
    const c = this.cells.get(nodeName);
    if (!c || c.pods.length > 0) return;
    c.dead = true;
    this.cells.delete(nodeName);
  }

  private changed(nodeName: string, m: Map<string, PodInfo> | undefined): void {
    const pods = m && m.size > 0 ? Object.freeze([...m.values()]) : NONE;
    const minPriority = minPriorityOf(pods);
    const c = this.cells.get(nodeName);
    if (c) {
      c.pods = pods;
      c.minPriority = minPriority;
    } else if (pods.length > 0) this.cells.set(nodeName, { owner: this, pods, minPriority, dead: false });
  }

  nominatedNodeOf(pod: Pod): string | undefined {
    return this.nodeOf.get(podUid(pod));
  }

  addNominatedPod(pod: Pod, nodeName: string): void {
    this.delete(pod);
    if (nodeName === '') return;
    const key = podUid(pod);
    let m = this.byNode.get(nodeName);
    if (!m) this.byNode.set(nodeName, (m = new Map<string, PodInfo>()));
    m.set(key, newPodInfo(pod));
    this.changed(nodeName, m);
    this.nodeOf.set(key, nodeName);
  }

  /** A pending pod seen by the watch: nominated where its status says, if anywhere. */
  add(pod: Pod): void {
    this.addNominatedPod(pod, nominatedNodeName(pod));
  }

  /**
   * kube's updateNominatedPod: the status decides, except that an update where neither version
   * has a nominated node keeps the one preemption set in memory (its status patch is on its way).
   */
  update(oldPod: Pod, newPod: Pod): void {
    let node = nominatedNodeName(newPod);
    if (node === '' && nominatedNodeName(oldPod) === '') node = this.nodeOf.get(podUid(oldPod)) ?? '';
    this.delete(oldPod);
    this.addNominatedPod(newPod, node);
  }

  delete(pod: Pod): void {
    const key = podUid(pod);
    const node = this.nodeOf.get(key);
    if (node === undefined) return;
    this.nodeOf.delete(key);
    const m = this.byNode.get(node);
    m?.delete(key);
    if (m?.size === 0) this.byNode.delete(node);
    this.changed(node, m);
  }

  size(): number {
    return this.nodeOf.size;
  }
}
