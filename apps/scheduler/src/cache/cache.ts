import { NodeInfo, newPodInfo } from '../framework/node-info.js';
import { podUid, type Node, type Pod } from '../framework/types.js';
import { PodCountIndex } from './pod-count-index.js';
import type { Snapshot } from './snapshot.js';

interface PodState {
  readonly nodeName: string;
  /** Placed by the scheduler before the API server confirmed the binding. */
  assumed: boolean;
}

/**
 * kube's scheduler cache: Node objects and the pods assigned to them, folded into one NodeInfo per
 * node whose totals are updated incrementally on each event. Pods the scheduler has just placed are
 * "assumed" so the next cycle accounts for them before the watch reports the binding; the watch's
 * add confirms them, `forgetPod` takes them back when the binding fails.
 *
 * Feed it assigned pods only (`spec.nodeName` set) and remove pods that turn terminal: the pod
 * informer's field selector (`status.phase!=Succeeded,status.phase!=Failed`) reports those as deletes.
 */
export class SchedulerCache {
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly podStates = new Map<string, PodState>();
  /** Rebuilt lazily after a node gains or loses its Node object. */
  private list: NodeInfo[] | undefined;
  /**
   * Nodes holding pods with pod (anti-)affinity, and with required anti-affinity: the affinity
   * plugins visit only these for existing pods' terms (kube's HavePodsWithAffinityList), so a
   * cluster without such pods pays nothing for them.
   */
  private readonly withAffinity = new Set<NodeInfo>();
  private readonly withRequiredAntiAffinity = new Set<NodeInfo>();
  private affinityList: NodeInfo[] | undefined;
  private antiAffinityList: NodeInfo[] | undefined;
  /** How many nodes report each image name (ImageLocality's spread). */
  private readonly imageNodes = new Map<string, number>();
  /** Pods per topology domain for the spread and affinity plugins (see pod-count-index.ts). */
  private readonly counts = new PodCountIndex(this.nodes);

  addNode(node: Node): void {
    const name = node.metadata.name;
    let info = this.nodes.get(name);
    if (!info) this.nodes.set(name, (info = new NodeInfo(name)));
    if (!info.node) this.invalidateLists();
    this.countImages(info, -1);
    const old = info.node;
    info.setNode(node);
    this.counts.nodeSet(info, old);
    this.countImages(info, 1);
  }

  private countImages(info: NodeInfo, sign: 1 | -1): void {
    if (!info.node) return;
    for (const name of info.images.keys()) {
      const n = (this.imageNodes.get(name) ?? 0) + sign;
      if (n <= 0) this.imageNodes.delete(name);
      else this.imageNodes.set(name, n);
    }
  }

  private invalidateLists(): void {
    this.list = undefined;
    this.affinityList = undefined;
    this.antiAffinityList = undefined;
  }

  /** Keeps the affinity node sets in step with one node's pods. */
  private trackAffinity(info: NodeInfo): void {
    const a = info.podsWithAffinity.size > 0;
    if (a !== this.withAffinity.has(info)) {
      if (a) this.withAffinity.add(info);
      else this.withAffinity.delete(info);
      this.affinityList = undefined;
    }
    const r = info.podsWithRequiredAntiAffinity.size > 0;
    if (r !== this.withRequiredAntiAffinity.has(info)) {
      if (r) this.withRequiredAntiAffinity.add(info);
      else this.withRequiredAntiAffinity.delete(info);
      this.antiAffinityList = undefined;
    }
  }

  updateNode(_oldNode: Node | undefined, newNode: Node): void {
    this.addNode(newNode);
  }

  /**
   * Drops the Node object. Pods still on it keep their NodeInfo (without a node, so it is never
   * scheduled to) until they are deleted too, as in kube.
   */
  removeNode(node: Node): void {
    const info = this.nodes.get(node.metadata.name);
    if (!info?.node) return;
    this.countImages(info, -1);
    const old = info.node;
    info.removeNode();
    this.counts.nodeRemoved(info, old);
    if (info.pods.size === 0) this.nodes.delete(info.name);
    this.invalidateLists();
  }

  /**
   * Records that the scheduler placed `pod` on `nodeName`, ahead of the binding. The pod is stored
   * with `spec.nodeName` set, as kube's assumed copy is.
   */
  assumePod(pod: Pod, nodeName: string): void {
    const key = podUid(pod);
    if (this.podStates.has(key)) throw new Error(`pod ${key} is in the cache, so can't be assumed`);
    const assumed: Pod = { ...pod, spec: { ...pod.spec, nodeName } };
    this.place(assumed, nodeName, true);
  }

  /** Takes back an assumed pod whose binding failed. Confirmed pods are not touched. */
  forgetPod(pod: Pod): void {
    const key = podUid(pod);
    const state = this.podStates.get(key);
    if (!state?.assumed) return;
    this.unplace(key, state);
  }

  /** The pod as the cache holds it (assumed or seen by the watch), or undefined. */
  getPod(pod: Pod): Pod | undefined {
    const key = podUid(pod);
    const state = this.podStates.get(key);
    return state ? this.nodes.get(state.nodeName)?.pods.get(key)?.pod : undefined;
  }

  isAssumed(pod: Pod): boolean {
    return this.podStates.get(podUid(pod))?.assumed ?? false;
  }

  /**
   * An assigned pod seen by the watch. Confirms an assumed pod (moving it if the API server put it
   * on another node than assumed); a pod already present is replaced, so a resync is harmless.
   */
  addPod(pod: Pod): void {
    const nodeName = pod.spec.nodeName ?? '';
    if (nodeName === '') return;
    const key = podUid(pod);
    const state = this.podStates.get(key);
    if (state) this.unplace(key, state);
    this.place(pod, nodeName, false);
  }

  updatePod(_oldPod: Pod | undefined, newPod: Pod): void {
    this.addPod(newPod);
  }

  removePod(pod: Pod): void {
    const key = podUid(pod);
    const state = this.podStates.get(key);
    if (state) this.unplace(key, state);
  }

  private place(pod: Pod, nodeName: string, assumed: boolean): void {
    let info = this.nodes.get(nodeName);
    if (!info) this.nodes.set(nodeName, (info = new NodeInfo(nodeName)));
    const p = newPodInfo(pod);
    const before = info.pods.get(p.key);
    if (before) this.counts.podRemoved(before, info);
    info.addPod(p);
    this.counts.podAdded(p, info);
    this.trackAffinity(info);
    this.podStates.set(podUid(pod), { nodeName, assumed });
  }

  private unplace(key: string, state: PodState): void {
    this.podStates.delete(key);
    const info = this.nodes.get(state.nodeName);
    if (!info) return;
    const p = info.pods.get(key);
    if (p) this.counts.podRemoved(p, info);
    info.removePod(key);
    this.trackAffinity(info);
    if (!info.node && info.pods.size === 0) this.nodes.delete(info.name);
  }

  /** The NodeInfo for a node, including a node-less one that only holds pods. */
  nodeInfo(nodeName: string): NodeInfo | undefined {
    return this.nodes.get(nodeName);
  }

  /** A view for one scheduling cycle; O(1) unless nodes came or went since the last one. */
  snapshot(): Snapshot {
    const nodeInfos = (this.list ??= [...this.nodes.values()].filter((n) => n.node !== undefined));
    return {
      nodeInfos,
      havePodsWithAffinity: () =>
        (this.affinityList ??= [...this.withAffinity].filter((n) => n.node !== undefined)),
      havePodsWithRequiredAntiAffinity: () =>
        (this.antiAffinityList ??= [...this.withRequiredAntiAffinity].filter((n) => n.node !== undefined)),
      anyPodsWithAffinity: () => anyWithNode(this.withAffinity),
      anyPodsWithRequiredAntiAffinity: () => anyWithNode(this.withRequiredAntiAffinity),
      imageNumNodes: (name) => this.imageNodes.get(name) ?? 0,
      podCounts: (q) => this.counts.podCounts(q),
      domains: (key, required) => this.counts.domains(key, required),
      existingTerms: (kind) => this.counts.existingTerms(kind),
      get: (name) => {
        const n = this.nodes.get(name);
        return n?.node ? n : undefined;
      },
      numNodes: () => nodeInfos.length,
    };
  }

  /** Nodes with a Node object. */
  nodeCount(): number {
    return this.snapshot().numNodes();
  }

  podCount(): number {
    return this.podStates.size;
  }

  assumedPodCount(): number {
    let n = 0;
    for (const s of this.podStates.values()) if (s.assumed) n++;
    return n;
  }
}

function anyWithNode(infos: Iterable<NodeInfo>): boolean {
  for (const n of infos) if (n.node !== undefined) return true;
  return false;
}
