import {
  hasPodAffinity,
  NO_AFFINITY_TERMS,
  podAffinityTerms,
  type PodAffinityTerms,
} from './affinity-terms.js';
import type { NominatedCell } from './interface.js';

/** A node copy with nominated pods added, valid while the node's generation and the pods hold. */
export interface NominatedCopy {
  readonly generation: number;
  readonly nominated: readonly PodInfo[];
  readonly copy: NodeInfo;
}
import { HostPortInfo, podHostPorts, type HostPort } from './host-ports.js';
import {
  addResource,
  emptyResource,
  nodeAllocatable,
  podNonZeroRequests,
  podRequests,
  type Resource,
} from './resource.js';
import { podUid, type Node, type Pod, type Taint } from './types.js';

/**
 * A pod with what the scheduler derives from it, computed once when the pod enters the cache so a
 * node's totals change by exactly what was added when the pod leaves.
 */
export interface PodInfo {
  readonly pod: Pod;
  readonly key: string;
  /** Requests for fitting (missing = 0); `pods` is 1 so a node's `requested.pods` counts its pods. */
  readonly requests: Resource;
  /** cpu / memory for scoring, a missing request counting as 100m / 200Mi. */
  readonly nonZero: { readonly milliCPU: number; readonly memory: number };
  readonly hostPorts: readonly HostPort[];
  /** The pod has pod affinity or anti-affinity (kube's PodsWithAffinity membership). */
  readonly withAffinity: boolean;
  /** Parsed once here, since existing pods' terms are read in every cycle. */
  readonly affinity: PodAffinityTerms;
}

export function newPodInfo(pod: Pod): PodInfo {
  const requests = podRequests(pod);
  requests.pods = 1;
  const withAffinity = hasPodAffinity(pod);
  let affinity = NO_AFFINITY_TERMS;
  if (withAffinity) {
    try {
      affinity = podAffinityTerms(pod);
    } catch {
      // An invalid selector (API validation prevents it) matches nothing, as kube's parse error does.
    }
  }
  return {
    pod,
    key: podUid(pod),
    requests,
    nonZero: podNonZeroRequests(pod),
    hostPorts: podHostPorts(pod),
    withAffinity,
    affinity,
  };
}

/** A node's images by every name it reports (node.status.images), with their size. */
export function nodeImages(node: Node): Map<string, number> {
  const out = new Map<string, number>();
  for (const img of node.status?.images ?? []) {
    for (const name of img.names ?? []) out.set(name, img.sizeBytes ?? 0);
  }
  return out;
}

const NO_TAINTS: readonly Taint[] = [];

/**
 * kube's NodeInfo: a node and the pods assigned (or assumed) to it, with running totals kept up to
 * date on every add and remove so a scheduling cycle never sums pods. `node` is undefined for a
 * node the cache has pods for but no Node object (not yet seen, or deleted before its pods).
 */
export class NodeInfo {
  node: Node | undefined;
  /**
   * The node's spec.unschedulable and spec.taints, kept on the NodeInfo when the node is set: a
   * cycle that fits nowhere filters every node of the cluster, and reading them through the Node
   * and its spec was two more objects fetched per node (a cache miss each, on 5,000 nodes the
   * largest cost of NodeUnschedulable and TaintToleration's filters).
   */
  unschedulable = false;
  taints: readonly Taint[] = NO_TAINTS;
  allocatable: Resource = emptyResource();
  readonly pods = new Map<string, PodInfo>();
  readonly requested: Resource = emptyResource();
  readonly nonZeroRequested = { milliCPU: 0, memory: 0 };
  readonly usedPorts = new HostPortInfo();
  /** Pods with pod affinity or anti-affinity (kube's PodsWithAffinity), by key. */
  readonly podsWithAffinity = new Map<string, PodInfo>();
  /** Pods with required anti-affinity terms (kube's PodsWithRequiredAntiAffinity), by key. */
  readonly podsWithRequiredAntiAffinity = new Map<string, PodInfo>();
  /** Image name → size in bytes, from the node's status. */
  images: ReadonlyMap<string, number> = new Map();
  /** Bumped on every change, so callers can tell whether a node changed since they last looked. */
  generation = 0;
  /** This node's nominations, as the framework's nominator last handed them out (by name). */
  nominations: NominatedCell | undefined;
  /**
   * This node with all its nominated pods added, as `nodeWithNominatedPods` last made it; never
   * copied to a clone. Kept on the node, not in a map beside it: a failed cycle reads it for
   * every nominated node, and a lookup elsewhere was one more cache miss each.
   */
  withNominated: NominatedCopy | undefined;

  constructor(
    /** Changed only by `copyFrom` (a scratch copy taking another node's place). */
    public name: string,
    node?: Node,
  ) {
    if (node) this.setNode(node);
  }

  /**
   * Makes this NodeInfo a copy of `other` (name, node, pods and totals), as `other.clone()` would
   * be: preemption's dry run reuses one scratch copy for each of its hundreds of candidates
   * instead of allocating a copy per candidate. The generation moves on, so anything kept for
   * this object's earlier contents (keyed by object and generation) is not taken for the new.
   * With `keep`, only the pods it accepts are copied: the dry run's copy without the pods it is
   * about to remove, instead of adding them only to take them off again.
   */
  copyFrom(other: NodeInfo, keep?: (p: PodInfo) => boolean): void {
    this.name = other.name;
    this.nominations = other.nominations;
    this.node = other.node;
    this.unschedulable = other.unschedulable;
    this.taints = other.taints;
    this.allocatable = other.allocatable;
    this.images = other.images;
    this.pods.clear();
    const r = this.requested;
    r.milliCPU = 0;
    r.memory = 0;
    r.ephemeralStorage = 0;
    r.pods = 0;
    r.scalar.clear();
    this.nonZeroRequested.milliCPU = 0;
    this.nonZeroRequested.memory = 0;
    this.usedPorts.clear();
    this.podsWithAffinity.clear();
    this.podsWithRequiredAntiAffinity.clear();
    for (const p of other.pods.values()) if (!keep || keep(p)) this.addPod(p);
    this.generation++;
  }

  /** A copy with the same node and pods, to try removing or adding pods (preemption). */
  clone(): NodeInfo {
    // The node's parsed allocatable and images are shared, not parsed again: preemption's dry run
    // clones hundreds of nodes per cycle, and neither is mutated in place (setNode replaces them).
    const c = new NodeInfo(this.name);
    c.nominations = this.nominations;
    c.node = this.node;
    c.unschedulable = this.unschedulable;
    c.taints = this.taints;
    c.allocatable = this.allocatable;
    c.images = this.images;
    for (const p of this.pods.values()) c.addPod(p);
    return c;
  }

  setNode(node: Node): void {
    this.node = node;
    this.unschedulable = Boolean(node.spec?.unschedulable);
    this.taints = node.spec?.taints ?? NO_TAINTS;
    this.allocatable = nodeAllocatable(node);
    this.images = nodeImages(node);
    this.generation++;
  }

  removeNode(): void {
    this.node = undefined;
    this.unschedulable = false;
    this.taints = NO_TAINTS;
    this.allocatable = emptyResource();
    this.images = new Map();
    this.generation++;
  }

  addPod(p: PodInfo): void {
    if (this.pods.has(p.key)) this.removePod(p.key);
    this.pods.set(p.key, p);
    this.account(p, 1);
  }

  /** Returns whether the pod was on this node. */
  removePod(key: string): boolean {
    const p = this.pods.get(key);
    if (!p) return false;
    this.pods.delete(key);
    this.account(p, -1);
    return true;
  }

  private account(p: PodInfo, sign: 1 | -1): void {
    addResource(this.requested, p.requests, sign);
    this.nonZeroRequested.milliCPU += sign * p.nonZero.milliCPU;
    this.nonZeroRequested.memory += sign * p.nonZero.memory;
    if (p.withAffinity) {
      if (sign === 1) this.podsWithAffinity.set(p.key, p);
      else this.podsWithAffinity.delete(p.key);
    }
    if (p.affinity.requiredAntiAffinity.length > 0) {
      if (sign === 1) this.podsWithRequiredAntiAffinity.set(p.key, p);
      else this.podsWithRequiredAntiAffinity.delete(p.key);
    }
    for (const hp of p.hostPorts) {
      if (sign === 1) this.usedPorts.add(hp);
      else this.usedPorts.remove(hp);
    }
    this.generation++;
  }
}
