import type { NodeInfo } from '../framework/node-info.js';

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
  /** How many nodes report an image under this name. */
  imageNumNodes(imageName: string): number;
  numNodes(): number;
}
