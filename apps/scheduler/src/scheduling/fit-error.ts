import { NodeToStatus } from '../framework/node-to-status.js';
import type { Status } from '../framework/status.js';
import type { Pod } from '../framework/types.js';

/** kube's ErrNoNodesAvailable: the cluster (snapshot) has no nodes at all. */
export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/**
 * Why a pod fit nowhere (kube's framework.Diagnosis): each rejected node's status (preemption
 * reads them), the plugins that rejected it (the queue retries it when events concern them), a
 * PreFilter rejection, and what PostFilter (preemption) said.
 */
export class Diagnosis {
  readonly nodeToStatus = new NodeToStatus();
  readonly unschedulablePlugins = new Set<string>();
  /** Nodes rejected by a filter. */
  failedNodes = 0;
  /** A PreFilter rejection's message; when set it replaces the per-node reasons. */
  preFilterMsg = '';
  /** The PostFilter plugins' message, appended to the reasons. */
  postFilterMsg = '';

  /** Records one node's rejection: each of its reasons counts once for that node. */
  addNodeStatus(nodeName: string, status: Status): void {
    this.failedNodes++;
    this.nodeToStatus.set(nodeName, status);
    if (status.plugin !== '') this.unschedulablePlugins.add(status.plugin);
  }

  /**
   * Records that every one of the cluster's `numAllNodes` nodes was rejected with `status`: it
   * becomes the status of all nodes (as a PreFilter rejection's does), so a cycle where one filter
   * turned the whole cluster down for one reason keeps one entry, not one per node. Reads (a
   * node's status, the reason counts, preemption's candidates) give what one entry per node would.
   */
  allNodesRejected(status: Status, numAllNodes: number): void {
    this.failedNodes += numAllNodes;
    this.nodeToStatus.setAbsentNodesStatus(status);
    if (status.plugin !== '') this.unschedulablePlugins.add(status.plugin);
  }
}

/** Go's sort.Strings order for ASCII (what reasons are made of). */
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `0/<N> nodes are available: <count> <reason>, ....` with the "<count> <reason>" entries sorted
 * as strings (the reasons of nodes missing from the map counting under its absent status).
 */
export function nodesAvailableMessage(numAllNodes: number, nodeToStatus: NodeToStatus): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  const histogram = [...nodeToStatus.reasonCounts(numAllNodes)]
    .map(([reason, n]) => `${n} ${reason}`)
    .sort(byString);
  if (histogram.length > 0) msg += ` ${histogram.join(', ')}.`;
  return msg;
}

/** The per-node reasons (or the PreFilter message in their place), as a sentence. */
function reasonsMessage(numAllNodes: number, d: Diagnosis): string {
  return d.preFilterMsg !== ''
    ? `0/${numAllNodes} nodes are available: ${d.preFilterMsg}.`
    : nodesAvailableMessage(numAllNodes, d.nodeToStatus);
}

const withPostFilter = (reasons: string, d: Diagnosis): string =>
  d.postFilterMsg !== '' ? `${reasons} ${d.postFilterMsg}.` : reasons;

/**
 * kube's FitError.Error(): the per-node reasons (or the PreFilter message in their place), then
 * the PostFilter message, each followed by a period. kube's preemption message is itself such a
 * sentence, so it ends in two periods, as kube's does.
 */
export function fitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  return withPostFilter(reasonsMessage(numAllNodes, d), d);
}

export class FitError extends Error {
  /**
   * The reasons part, counted once: the diagnosis is complete when the cycle makes its FitError
   * (PostFilter only reads the node statuses), and counting them walks every node's status.
   */
  private readonly reasons: string;

  constructor(
    readonly pod: Pod,
    readonly numAllNodes: number,
    readonly diagnosis: Diagnosis,
  ) {
    const reasons = reasonsMessage(numAllNodes, diagnosis);
    super(withPostFilter(reasons, diagnosis));
    this.reasons = reasons;
    this.name = 'FitError';
  }

  /** The message again, after PostFilter added its part to the diagnosis. */
  text(): string {
    return withPostFilter(this.reasons, this.diagnosis);
  }
}
