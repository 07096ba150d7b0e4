import type { NodeInfo } from './node-info.js';
import { Status, type Code } from './status.js';

/**
 * kube's NodeToStatus: why each node was rejected in a cycle, and the status every node missing
 * from the map has (UnschedulableAndUnresolvable unless said otherwise: a PreFilter rejection
 * applies to all nodes). Preemption reads it to find the nodes where removing pods may help.
 */
export class NodeToStatus {
  private readonly statuses = new Map<string, Status>();

  constructor(private absent: Status = Status.unresolvable()) {}

  set(nodeName: string, status: Status): void {
    this.statuses.set(nodeName, status);
  }

  /** The node's status, or the absent nodes' one. */
  get(nodeName: string): Status {
    return this.statuses.get(nodeName) ?? this.absent;
  }

  setAbsentNodesStatus(status: Status): void {
    this.absent = status;
  }

  absentNodesStatus(): Status {
    return this.absent;
  }

  get size(): number {
    return this.statuses.size;
  }

  /** The nodes (in the given order) whose status has `code`, absent ones included. */
  nodesForStatusCode(nodes: readonly NodeInfo[], code: Code): NodeInfo[] {
    // A cycle that rejected the whole cluster for one reason records no node: all or none then.
    if (this.statuses.size === 0) return this.absent.code === code ? [...nodes] : [];
    return nodes.filter((n) => this.get(n.name).code === code);
  }

  /**
   * How many nodes give each reason, out of `numAllNodes` (kube's FitError counting): each listed
   * node counts once per reason, and the nodes not listed count under the absent status' reasons.
   */
  reasonCounts(numAllNodes: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const s of this.statuses.values())
      for (const r of s.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
    const missing = numAllNodes - this.statuses.size;
    if (missing > 0) for (const r of this.absent.reasons) counts.set(r, (counts.get(r) ?? 0) + missing);
    return counts;
  }
}
