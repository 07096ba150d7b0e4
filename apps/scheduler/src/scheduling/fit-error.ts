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

/**
 * kube's FitError.Error(): the per-node reasons (or the PreFilter message in their place), then
 * the PostFilter message, each followed by a period. kube's preemption message is itself such a
 * sentence, so it ends in two periods, as kube's does.
 */
export function fitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  let msg =
    d.preFilterMsg !== ''
      ? `0/${numAllNodes} nodes are available: ${d.preFilterMsg}.`
      : nodesAvailableMessage(numAllNodes, d.nodeToStatus);
  if (d.postFilterMsg !== '') msg += ` ${d.postFilterMsg}.`;
  return msg;
}

export class FitError extends Error {
  constructor(
    readonly pod: Pod,
    readonly numAllNodes: number,
    readonly diagnosis: Diagnosis,
  ) {
    super(fitErrorMessage(numAllNodes, diagnosis));
    this.name = 'FitError';
  }

  /** The message again, after PostFilter added its part to the diagnosis. */
  text(): string {
    return fitErrorMessage(this.numAllNodes, this.diagnosis);
  }
}
