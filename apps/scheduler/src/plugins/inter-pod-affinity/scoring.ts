import {
  termMatches,
  type AffinityTerm,
  type Labels,
  type PodAffinityTerms,
  type WeightedAffinityTerm,
} from '../../framework/affinity-terms.js';
import { MAX_NODE_SCORE } from '../../framework/interface.js';
import type { NodeInfo, PodInfo } from '../../framework/node-info.js';
import type { Pod } from '../../framework/types.js';
import type { InterPodAffinityArgs } from './args.js';

/** topologyKey → value → score, kube's scoreMap. */
export type ScoreMap = Map<string, Map<string, number>>;

function processTerm(
  m: ScoreMap,
  term: AffinityTerm,
  weight: number,
  pod: Pod,
  nsLabels: Labels | undefined,
  nodeLabels: Labels,
  multiplier: number,
): void {
  if (!termMatches(term, pod, nsLabels)) return;
  const v = nodeLabels[term.topologyKey];
  if (v === undefined) return;
  let byValue = m.get(term.topologyKey);
  if (!byValue) m.set(term.topologyKey, (byValue = new Map()));
  byValue.set(v, (byValue.get(v) ?? 0) + weight * multiplier);
}

function processTerms(
  m: ScoreMap,
  terms: readonly WeightedAffinityTerm[],
  pod: Pod,
  nsLabels: Labels | undefined,
  nodeLabels: Labels,
  multiplier: number,
): void {
  for (const t of terms) processTerm(m, t, t.weight, pod, nsLabels, nodeLabels, multiplier);
}

export interface ScoreInput {
  readonly pod: Pod;
  /** The incoming pod's terms, namespace selectors already folded into namespaces. */
  readonly terms: PodAffinityTerms;
  readonly nsLabels: Labels;
  readonly args: InterPodAffinityArgs;
}

/**
 * kube's processExistingPod: the incoming pod's preferred terms matched against the existing pod,
 * and the existing pod's required affinity (× hardPodAffinityWeight) and preferred terms matched
 * against the incoming pod, each credited to the existing pod's node's topology pair. `labels` are
 * the existing pod's node's labels (a node without labels is skipped by the caller).
 */
export function processExistingPod(m: ScoreMap, input: ScoreInput, existing: PodInfo, labels: Labels): void {
  const { pod, terms, nsLabels, args } = input;
  processTerms(m, terms.preferredAffinity, existing.pod, undefined, labels, 1);
  processTerms(m, terms.preferredAntiAffinity, existing.pod, undefined, labels, -1);
  const e = existing.affinity;
  if (args.hardPodAffinityWeight > 0) {
    for (const t of e.requiredAffinity)
      processTerm(m, t, args.hardPodAffinityWeight, pod, nsLabels, labels, 1);
  }
  if (args.ignorePreferredTermsOfExistingPods) return;
  processTerms(m, e.preferredAffinity, pod, nsLabels, labels, 1);
  processTerms(m, e.preferredAntiAffinity, pod, nsLabels, labels, -1);
}

/** A node's raw score: the sum over the map's topology keys of its own pair's value. */
export function scoreNode(m: ScoreMap, info: NodeInfo): number {
  const labels = info.node?.metadata.labels ?? {};
  let score = 0;
  for (const [key, byValue] of m) {
    const v = labels[key];
    if (v !== undefined) score += byValue.get(v) ?? 0;
  }
  return score;
}

/** Min-max scaling into 0..100 (truncated); all equal gives 0. */
export function normalize(scores: number[]): void {
  let min = Infinity;
  let max = -Infinity;
  for (const s of scores) {
    if (s > max) max = s;
    if (s < min) min = s;
  }
  const diff = max - min;
  for (let i = 0; i < scores.length; i++) {
    scores[i] = diff > 0 ? Math.trunc(MAX_NODE_SCORE * (((scores[i] as number) - min) / diff)) : 0;
  }
}
