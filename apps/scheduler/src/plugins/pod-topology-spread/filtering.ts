import type { Snapshot } from '../../cache/snapshot.js';
import type { ClusterObjects } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { CloneableState } from '../../framework/cycle-state.js';
import type { Node, Pod, TopologySpreadConstraint } from '../../framework/types.js';
import { requiredNodeAffinity } from '../helper/node-selector.js';
import {
  countsForSpread,
  matchesInclusionPolicies,
  selectorKey,
  nodeHasAllTopologyKeys,
  podConstraints,
  type Constraint,
  type CountOnNode,
} from './common.js';

export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH = ERR_REASON_CONSTRAINTS_NOT_MATCH + ' (missing required label)';

/**
 * What PreFilter computes for Filter: matching pods per domain and the minimum, per constraint.
 * The PreFilter extensions change the counts of a clone (see updateWithPod).
 */
export class PreFilterState implements CloneableState {
  constructor(
    readonly constraints: readonly Constraint[],
    /** Per constraint: topology value → matching pods in that domain. */
    readonly tpValueToMatchNum: readonly Map<string, number>[],
    /** Per constraint: the smallest count over its domains (kube's criticalPaths[0]). */
    readonly minMatchNum: number[],
  ) {}

  clone(): PreFilterState {
    return new PreFilterState(
      this.constraints,
      this.tpValueToMatchNum.map((m) => new Map(m)),
      [...this.minMatchNum],
    );
  }
}

const NO_COUNTS: ReadonlyMap<string, number> = new Map();

function minOf(m: ReadonlyMap<string, number>): number {
  let min = Number.MAX_SAFE_INTEGER;
  for (const n of m.values()) if (n < min) min = n;
  return min;
}

/**
 * kube's updateWithPod (AddPod with +1, RemovePod with -1): `other`, on `node`, changes the count
 * of its domain for each constraint whose selector matches it, when it is in the preemptor's
 * namespace and the node is one PreFilter counted (every topology key, inclusion policies). It
 * is counted as PreFilter counted it (no terminating pods, nothing for an empty selector), so a
 * pod that was never counted is never uncounted. The minimum is recomputed exactly (kube keeps
 * the two smallest domains).
 */
export function updateWithPod(
  s: PreFilterState,
  other: Pod,
  preemptor: Pod,
  node: Node | undefined,
  delta: number,
): void {
  const ns = preemptor.metadata.namespace ?? '';
  if (!node || (other.metadata.namespace ?? '') !== ns || other.metadata.deletionTimestamp) return;
  const labels = node.metadata.labels ?? {};
  if (!nodeHasAllTopologyKeys(labels, s.constraints)) return;
  const required = requiredNodeAffinity(preemptor);
  const podLabels = other.metadata.labels ?? {};
  s.constraints.forEach((c, i) => {
    if (c.selector.isEmpty() || !c.selector.matches(podLabels)) return;
    if (!matchesInclusionPolicies(c, preemptor, node, required)) return;
    const value = labels[c.topologyKey] as string;
    const m = s.tpValueToMatchNum[i] as Map<string, number>;
    m.set(value, (m.get(value) ?? 0) + delta);
    s.minMatchNum[i] = minOf(m);
  });
}

/**
 * kube's calPreFilterState: counts, for each DoNotSchedule constraint, the pods matching its
 * selector in each domain, over the nodes that have every topology key and pass the constraint's
 * node inclusion policies.
 */
export function calPreFilterState(
  pod: Pod,
  snapshot: Snapshot,
  defaults: readonly TopologySpreadConstraint[],
  objects: ClusterObjects,
  count: CountOnNode,
): PreFilterState {
  const constraints = podConstraints(pod, 'DoNotSchedule', defaults, objects);
  const tpValueToMatchNum = constraints.map(() => new Map<string, number>());
  if (constraints.length === 0) return new PreFilterState(constraints, tpValueToMatchNum, []);
  const required = requiredNodeAffinity(pod);
  const ns = pod.metadata.namespace ?? '';
  // Without a node inclusion policy that depends on the node beyond its labels, every node with
  // all the keys counts: the cache's index gives the counts per domain without a visit per node.
  if (constraints.every((c) => !c.honorNodeTaints && (!c.honorNodeAffinity || !required))) {
    const keys = [...new Set(constraints.map((c) => c.topologyKey))].sort();
    constraints.forEach((c, i) => {
      const counts = c.selector.isEmpty()
        ? NO_COUNTS
        : snapshot.podCounts({
            key: `spread\u0000${ns}\u0000${selectorKey(c.selector)}`,
            matches: (p) => countsForSpread(p, c.selector, ns),
            topologyKey: c.topologyKey,
            requiredKeys: keys,
          });
      const m = tpValueToMatchNum[i] as Map<string, number>;
      for (const v of snapshot.domains(c.topologyKey, keys).keys()) m.set(v, counts.get(v) ?? 0);
    });
    return new PreFilterState(constraints, tpValueToMatchNum, tpValueToMatchNum.map(minOf));
  }
  for (const info of snapshot.nodeInfos) {
    const node = info.node;
    if (!node) continue;
    const labels = node.metadata.labels ?? {};
    if (!nodeHasAllTopologyKeys(labels, constraints)) continue;
    constraints.forEach((c, i) => {
      if (!matchesInclusionPolicies(c, pod, node, required)) return;
      const value = labels[c.topologyKey] as string;
      const m = tpValueToMatchNum[i] as Map<string, number>;
      m.set(value, (m.get(value) ?? 0) + count(info, c, ns));
    });
  }
  return new PreFilterState(constraints, tpValueToMatchNum, tpValueToMatchNum.map(minOf));
}

/**
 * A node fails when it lacks a topology key (unresolvable), or when placing the pod there would
 * make its domain's count, minus the global minimum, exceed maxSkew. With fewer eligible domains
 * than minDomains the global minimum counts as 0.
 */
export function filterNode(s: PreFilterState, pod: Pod, info: NodeInfo): MaybeStatus {
  const labels = info.node?.metadata.labels ?? {};
  const podLabels = pod.metadata.labels ?? {};
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i] as Constraint;
    const value = labels[c.topologyKey];
    if (value === undefined) return Status.unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH);
    const counts = s.tpValueToMatchNum[i] as Map<string, number>;
    const minMatch = counts.size < c.minDomains ? 0 : (s.minMatchNum[i] as number);
    const self = c.selector.matches(podLabels) ? 1 : 0;
    const skew = (counts.get(value) ?? 0) + self - minMatch;
    if (skew > c.maxSkew) return Status.unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH);
  }
  return undefined;
}
