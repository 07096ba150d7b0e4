import {
  termMatches,
  type AffinityTerm,
  type Labels,
  type PodAffinityTerms,
  type WeightedAffinityTerm,
} from '../../framework/affinity-terms.js';
import type { TermKind } from '../../cache/pod-count-index.js';
import type { Snapshot } from '../../cache/snapshot.js';
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

/**
 * The existing pods' side of kube's processExistingPod, from the cache's index of their terms:
 * their required affinity terms matching the incoming pod add hardPodAffinityWeight, their
 * preferred affinity (anti-affinity) terms add (subtract) their weight, once per such pod at its
 * node's topology pair.
 */
export function existingSide(
  m: ScoreMap,
  snapshot: Pick<Snapshot, 'existingTerms'>,
  input: ScoreInput,
): void {
  const { args, pod, nsLabels } = input;
  const add = (kind: TermKind, weight: (t: WeightedAffinityTerm | AffinityTerm) => number) => {
    for (const { term, counts } of snapshot.existingTerms(kind)) {
      if (!termMatches(term, pod, nsLabels)) continue;
      const w = weight(term);
      for (const [v, n] of counts) addScore(m, term.topologyKey, v, w * n);
    }
  };
  if (args.hardPodAffinityWeight > 0) add('requiredAffinity', () => args.hardPodAffinityWeight);
  if (args.ignorePreferredTermsOfExistingPods) return;
  add('preferredAffinity', (t) => ('weight' in t ? t.weight : 0));
  add('preferredAntiAffinity', (t) => -('weight' in t ? t.weight : 0));
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
