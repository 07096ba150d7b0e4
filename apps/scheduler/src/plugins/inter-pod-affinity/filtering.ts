import {
  podMatchesAllAffinityTerms,
  termMatches,
  type Labels,
  type PodAffinityTerms,
} from '../../framework/affinity-terms.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { Pod } from '../../framework/types.js';

export const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH =
  "node(s) didn't satisfy existing pods anti-affinity rules";
export const ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";

/** Counts per topology pair (`key`, `value`), the pair encoded as one string. */
export type TopologyCounts = Map<string, number>;

const pairKey = (key: string, value: string) => `${key}\u0000${value}`;

function add(m: TopologyCounts, key: string, value: string, n: number): void {
  const k = pairKey(key, value);
  const v = (m.get(k) ?? 0) + n;
  if (v === 0) m.delete(k);
  else m.set(k, v);
}

export function countOf(m: TopologyCounts, key: string, value: string): number {
  return m.get(pairKey(key, value)) ?? 0;
}

/** What PreFilter computes for Filter (kube's interpodaffinity preFilterState). */
export interface PreFilterState {
  readonly pod: Pod;
  readonly terms: PodAffinityTerms;
  /** Existing pods' required anti-affinity terms the incoming pod matches, by their topology pair. */
  readonly existingAntiAffinityCounts: TopologyCounts;
  /** Existing pods matching all the incoming pod's required affinity terms, per term topology pair. */
  readonly affinityCounts: TopologyCounts;
  /** Existing pods matching each of the incoming pod's required anti-affinity terms. */
  readonly antiAffinityCounts: TopologyCounts;
}

function nodeLabels(info: NodeInfo): Labels {
  return info.node?.metadata.labels ?? {};
}

/** For each existing pod with required anti-affinity, the pairs where its terms match `pod`. */
export function existingAntiAffinityCounts(
  pod: Pod,
  nsLabels: Labels,
  nodes: readonly NodeInfo[],
): TopologyCounts {
  const counts: TopologyCounts = new Map();
  for (const info of nodes) {
    const labels = nodeLabels(info);
    for (const existing of info.podsWithRequiredAntiAffinity.values()) {
      for (const t of existing.affinity.requiredAntiAffinity) {
        const v = labels[t.topologyKey];
        if (v !== undefined && termMatches(t, pod, nsLabels)) add(counts, t.topologyKey, v, 1);
      }
    }
  }
  return counts;
}

/** Existing pods matching the incoming pod's required affinity and anti-affinity terms. */
export function incomingAffinityCounts(
  terms: PodAffinityTerms,
  nodes: readonly NodeInfo[],
): { affinity: TopologyCounts; antiAffinity: TopologyCounts } {
  const affinity: TopologyCounts = new Map();
  const antiAffinity: TopologyCounts = new Map();
  const req = terms.requiredAffinity;
  const anti = terms.requiredAntiAffinity;
  if (req.length === 0 && anti.length === 0) return { affinity, antiAffinity };
  for (const info of nodes) {
    const labels = nodeLabels(info);
    for (const { pod: existing } of info.pods.values()) {
      if (req.length > 0 && podMatchesAllAffinityTerms(req, existing)) {
        for (const t of req) {
          const v = labels[t.topologyKey];
          if (v !== undefined) add(affinity, t.topologyKey, v, 1);
        }
      }
      for (const t of anti) {
        const v = labels[t.topologyKey];
        if (v !== undefined && termMatches(t, existing, undefined)) add(antiAffinity, t.topologyKey, v, 1);
      }
    }
  }
  return { affinity, antiAffinity };
}

/**
 * Required affinity: the node has every term's topology key, and each of its pairs holds a pod
 * matching all terms, unless no pod anywhere matches and the pod matches its own terms (the first
 * pod of a group that has affinity to itself may go to any node with the topology labels).
 */
export function satisfiesPodAffinity(s: PreFilterState, info: NodeInfo): boolean {
  const labels = nodeLabels(info);
  let podsExist = true;
  for (const t of s.terms.requiredAffinity) {
    const v = labels[t.topologyKey];
    if (v === undefined) return false;
    if (countOf(s.affinityCounts, t.topologyKey, v) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  return s.affinityCounts.size === 0 && podMatchesAllAffinityTerms(s.terms.requiredAffinity, s.pod);
}

export function satisfiesPodAntiAffinity(s: PreFilterState, info: NodeInfo): boolean {
  if (s.antiAffinityCounts.size === 0) return true;
  const labels = nodeLabels(info);
  for (const t of s.terms.requiredAntiAffinity) {
    const v = labels[t.topologyKey];
    if (v !== undefined && countOf(s.antiAffinityCounts, t.topologyKey, v) > 0) return false;
  }
  return true;
}

export function satisfiesExistingPodsAntiAffinity(s: PreFilterState, info: NodeInfo): boolean {
  if (s.existingAntiAffinityCounts.size === 0) return true;
  for (const [k, v] of Object.entries(nodeLabels(info))) {
    if (countOf(s.existingAntiAffinityCounts, k, v) > 0) return false;
  }
  return true;
}
