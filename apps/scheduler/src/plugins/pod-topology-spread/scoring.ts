import type { Snapshot } from '../../cache/snapshot.js';
import { MAX_NODE_SCORE } from '../../framework/interface.js';
import type { ClusterObjects } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { Pod, TopologySpreadConstraint } from '../../framework/types.js';
import { requiredNodeAffinity } from '../helper/node-selector.js';
import { LABEL_HOSTNAME } from './args.js';
import {
  matchesInclusionPolicies,
  nodeHasAllTopologyKeys,
  podConstraints,
  type Constraint,
  type CountOnNode,
} from './common.js';

/** What PreScore computes for Score (kube's podtopologyspread preScoreState). */
export interface PreScoreState {
  readonly constraints: readonly Constraint[];
  /** Feasible nodes lacking a topology key: scored 0. */
  readonly ignoredNodes: ReadonlySet<string>;
  /** Per constraint: matching pods per domain of the feasible nodes (hostname counted in Score). */
  readonly tpValueToPodCounts: readonly Map<string, number>[];
  /** Per constraint: log(domains + 2), so small topologies are not watered down by big ones. */
  readonly normalizingWeight: readonly number[];
  /** The nodes being scored, in the order of the scores Normalize gets. */
  readonly feasible: readonly NodeInfo[];
}

/**
 * kube's initPreScoreState plus its count over all nodes. `requireAllTopologies` is false only for
 * the system default constraints, so nodes without a zone label still spread by hostname.
 */
export function calPreScoreState(
  pod: Pod,
  feasible: readonly NodeInfo[],
  snapshot: Snapshot,
  defaults: readonly TopologySpreadConstraint[],
  systemDefaulted: boolean,
  objects: ClusterObjects,
  count: CountOnNode,
): PreScoreState | undefined {
  const constraints = podConstraints(pod, 'ScheduleAnyway', defaults, objects);
  if (constraints.length === 0) return undefined;
  const requireAll = (pod.spec.topologySpreadConstraints ?? []).length > 0 || !systemDefaulted;
  const ignoredNodes = new Set<string>();
  const tpValueToPodCounts = constraints.map(() => new Map<string, number>());
  for (const info of feasible) {
    const labels = info.node?.metadata.labels ?? {};
    if (requireAll && !nodeHasAllTopologyKeys(labels, constraints)) {
      ignoredNodes.add(info.name);
      continue;
    }
    constraints.forEach((c, i) => {
      if (c.topologyKey === LABEL_HOSTNAME) return;
      const v = labels[c.topologyKey] ?? '';
      const m = tpValueToPodCounts[i] as Map<string, number>;
      if (!m.has(v)) m.set(v, 0);
    });
  }
  const normalizingWeight = constraints.map((c, i) => {
    const size =
      c.topologyKey === LABEL_HOSTNAME
        ? feasible.length - ignoredNodes.size
        : (tpValueToPodCounts[i] as Map<string, number>).size;
    return Math.log(size + 2);
  });

  const required = requiredNodeAffinity(pod);
  const ns = pod.metadata.namespace ?? '';
  for (const info of snapshot.nodeInfos) {
    const node = info.node;
    if (!node) continue;
    const labels = node.metadata.labels ?? {};
    if (requireAll && !nodeHasAllTopologyKeys(labels, constraints)) continue;
    constraints.forEach((c, i) => {
      if (!matchesInclusionPolicies(c, pod, node, required)) return;
      const m = tpValueToPodCounts[i] as Map<string, number>;
      const v = labels[c.topologyKey] ?? '';
      const cur = m.get(v);
      // Domains without a feasible node, and hostname (counted per node in Score), are skipped.
      if (cur === undefined) return;
      m.set(v, cur + count(info, c, ns));
    });
  }
  return { constraints, ignoredNodes, tpValueToPodCounts, normalizingWeight, feasible };
}

/** Fewer matching pods in the node's domains is better; Normalize reverses this raw count. */
export function scoreNode(s: PreScoreState, pod: Pod, info: NodeInfo, count: CountOnNode): number {
  if (s.ignoredNodes.has(info.name)) return 0;
  const labels = info.node?.metadata.labels ?? {};
  const ns = pod.metadata.namespace ?? '';
  let score = 0;
  s.constraints.forEach((c, i) => {
    const v = labels[c.topologyKey];
    if (v === undefined) return;
    const cnt =
      c.topologyKey === LABEL_HOSTNAME
        ? count(info, c, ns)
        : ((s.tpValueToPodCounts[i] as Map<string, number>).get(v) ?? 0);
    // maxSkew − 1 waters down differences, so a small skew costs little.
    score += cnt * (s.normalizingWeight[i] as number) + (c.maxSkew - 1);
  });
  return Math.round(score);
}

/**
 * kube's NormalizeScore: 100 × (max + min − score) / max (integer division), ignored nodes 0,
 * and 100 for all when every score is 0.
 */
export function normalize(s: PreScoreState, scores: number[]): void {
  const nodes = s.feasible;
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
  for (let i = 0; i < scores.length; i++) {
    if (s.ignoredNodes.has((nodes[i] as NodeInfo).name)) continue;
    const v = scores[i] as number;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  for (let i = 0; i < scores.length; i++) {
    if (s.ignoredNodes.has((nodes[i] as NodeInfo).name)) scores[i] = 0;
    else if (max === 0) scores[i] = MAX_NODE_SCORE;
    else scores[i] = Math.trunc((MAX_NODE_SCORE * (max + min - (scores[i] as number))) / max);
  }
}
