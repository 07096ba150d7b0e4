import type { Status } from '../framework/status.js';
import type { Pod } from '../framework/types.js';

/** kube's ErrNoNodesAvailable: the cluster (snapshot) has no nodes at all. */
export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/**
 * Why a pod fit nowhere (kube's framework.Diagnosis): how many nodes gave each reason, the plugins
 * that rejected it (the queue retries it when events concern them), and a PreFilter rejection.
 */
export class Diagnosis {
  readonly reasonCounts = new Map<string, number>();
  readonly unschedulablePlugins = new Set<string>();
  /** Nodes rejected by a filter. */
  failedNodes = 0;
  /** A PreFilter rejection's message; when set it replaces the per-node reasons. */
  preFilterMsg = '';

  /** Records one node's rejection: each of its reasons counts once for that node. */
  addNodeStatus(status: Status): void {
    this.failedNodes++;
    for (const r of status.reasons) this.reasonCounts.set(r, (this.reasonCounts.get(r) ?? 0) + 1);
    if (status.plugin !== '') this.unschedulablePlugins.add(status.plugin);
  }
}

/** Go's sort.Strings order for ASCII (what reasons are made of). */
const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * kube's FitError.Error(): `0/<N> nodes are available: <count> <reason>, ....` with the
 * "<count> <reason>" entries sorted as strings, or the PreFilter message in their place. kube then
 * appends the PostFilter (preemption) message; Keel has no preemption, so there is none.
 */
export function fitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (d.preFilterMsg !== '') return `${msg} ${d.preFilterMsg}.`;
  const histogram = [...d.reasonCounts].map(([reason, n]) => `${n} ${reason}`).sort(byString);
  if (histogram.length > 0) msg += ` ${histogram.join(', ')}.`;
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
}
