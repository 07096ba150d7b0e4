import type { NodeInfo } from '../framework/node-info.js';
import type { PodQuery, TermCounts, TermKind } from './pod-count-index.js';

/**
 * The nodes a scheduling cycle sees. It is a view over the cache, not a copy: keeping it costs
 * nothing per cycle, and it stays consistent because a cycle runs synchronously; take a new one
 * for every cycle and do not hold it across an `await`.
 */
export interface Snapshot {
  /** Nodes that have a Node object, in a stable order (changes only when nodes come and go). */
  readonly nodeInfos: readonly NodeInfo[];
  get(nodeName: string): NodeInfo | undefined;
  /** Nodes with at least one pod with pod affinity or anti-affinity. */
  havePodsWithAffinity(): readonly NodeInfo[];
  /** Nodes with at least one pod with required pod anti-affinity. */
  havePodsWithRequiredAntiAffinity(): readonly NodeInfo[];
  /**
   * Whether those lists are non-empty, without building them: in a cycle that places such a pod
   * on a node that had none, the next cycle's lists are rebuilt (a copy of every such node).
   */
  anyPodsWithAffinity(): boolean;
  anyPodsWithRequiredAntiAffinity(): boolean;
  /** How many nodes report an image under this name. */
  imageNumNodes(imageName: string): number;
  numNodes(): number;
  /**
   * Pods matching the query per topology value, kept up to date by the cache (no zero entries).
   * The map is never changed afterwards; do not change it.
   */
  podCounts(query: PodQuery): ReadonlyMap<string, number>;
  /** Nodes per value of `topologyKey`, over the nodes that also have every one of `requiredKeys`. */
  domains(topologyKey: string, requiredKeys?: readonly string[]): ReadonlyMap<string, number>;
  /** Existing pods' distinct terms of one kind, each counted per value of its topology key. */
  existingTerms(kind: TermKind): Iterable<TermCounts>;
}
