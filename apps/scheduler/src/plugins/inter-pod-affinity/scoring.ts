import {
  termMatches,
  type AffinityTerm,
  type Labels,
  type PodAffinityTerms,
  type WeightedAffinityTerm,
} from '../../framework/affinity-terms.js';
import { MAX_NODE_SCORE } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { Pod } from '../../framework/types.js';
import type { InterPodAffinityArgs } from './args.js';

/** topologyKey → value → score, kube's scoreMap. */
export type ScoreMap = Map<string, Map<string, number>>;

/** Adds `delta` to the pair's score. */
export function addScore(m: ScoreMap, key: string, value: string, delta: number): void {
  let byValue = m.get(key);
  if (!byValue) m.set(key, (byValue = new Map<string, number>()));
  byValue.set(value, (byValue.get(value) ?? 0) + delta);
}

export interface ScoreInput {
  readonly pod: Pod;
  readonly nsLabels: Labels;
  readonly args: InterPodAffinityArgs;
}

/** Pods on the node matching one of the incoming pod's terms (namespaces already merged). */
export function termCountOnNode(term: AffinityTerm, info: NodeInfo): number {
  let n = 0;
  for (const { pod } of info.pods.values()) if (termMatches(term, pod, undefined)) n++;
  return n;
}

/** One existing pod's contribution: `[topologyKey, value, delta]` for its node's labels. */
export type Contribution = [string, string, number];

function existingTerm(
  out: Contribution[],
  term: AffinityTerm,
  weight: number,
  input: ScoreInput,
  labels: Labels,
): void {
  const v = labels[term.topologyKey];
  if (v === undefined || !termMatches(term, input.pod, input.nsLabels)) return;
  out.push([term.topologyKey, v, weight]);
}

/**
 * The existing pods' side of kube's processExistingPod on one node: their required affinity terms
 * matching the incoming pod add hardPodAffinityWeight, their preferred affinity (anti-affinity)
 * terms add (subtract) their weight, each at the existing pod's node's topology pair.
 */
export function existingSideOnNode(input: ScoreInput, info: NodeInfo, labels: Labels): Contribution[] {
  const out: Contribution[] = [];
  const { args } = input;
  for (const { affinity: e } of info.podsWithAffinity.values()) {
    if (args.hardPodAffinityWeight > 0) {
      for (const t of e.requiredAffinity) existingTerm(out, t, args.hardPodAffinityWeight, input, labels);
    }
    if (args.ignorePreferredTermsOfExistingPods) continue;
    for (const t of e.preferredAffinity) existingTerm(out, t, t.weight, input, labels);
    for (const t of e.preferredAntiAffinity) existingTerm(out, t, -t.weight, input, labels);
  }
  return out;
}

/** The incoming pod's preferred terms, each with its signed weight. */
export function incomingPreferred(terms: PodAffinityTerms): { term: WeightedAffinityTerm; sign: number }[] {
  return [
    ...terms.preferredAffinity.map((term) => ({ term, sign: 1 })),
    ...terms.preferredAntiAffinity.map((term) => ({ term, sign: -1 })),
  ];
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
