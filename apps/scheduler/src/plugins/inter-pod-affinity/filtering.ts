import {
  podMatchesAllAffinityTerms,
  termMatches,
  type Labels,
  type PodAffinityTerms,
} from '../../framework/affinity-terms.js';
import type { CloneableState } from '../../framework/cycle-state.js';
import type { NodeInfo, PodInfo } from '../../framework/node-info.js';
import type { Node, Pod } from '../../framework/types.js';

export const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH =
  "node(s) didn't satisfy existing pods anti-affinity rules";
export const ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";

/** Counts per topology pair: topology key → value → count. */
export type TopologyCounts = Map<string, Map<string, number>>;

function add(m: TopologyCounts, key: string, value: string, n: number): void {
  let byValue = m.get(key);
  if (!byValue) m.set(key, (byValue = new Map<string, number>()));
  const v = (byValue.get(value) ?? 0) + n;
  if (v !== 0) byValue.set(value, v);
  else {
    byValue.delete(value);
    if (byValue.size === 0) m.delete(key);
  }
}

export function countOf(m: TopologyCounts, key: string, value: string): number {
  return m.get(key)?.get(value) ?? 0;
}

/** What PreFilter computes for Filter (kube's interpodaffinity preFilterState). */
export interface PreFilterFields {
  readonly pod: Pod;
  readonly terms: PodAffinityTerms;
  /** Labels of the incoming pod's namespace, as existing pods' terms see it. */
  readonly nsLabels: Labels;
  /** Existing pods' required anti-affinity terms the incoming pod matches, by their topology pair. */
  readonly existingAntiAffinityCounts: TopologyCounts;
  /** Existing pods matching all the incoming pod's required affinity terms, per term topology pair. */
  readonly affinityCounts: TopologyCounts;
  /** Existing pods matching each of the incoming pod's required anti-affinity terms. */
  readonly antiAffinityCounts: TopologyCounts;
}

export interface PreFilterState extends PreFilterFields, CloneableState {
  clone(): PreFilterState;
}

function copyCounts(m: TopologyCounts): TopologyCounts {
  return new Map([...m].map(([k, byValue]) => [k, new Map(byValue)]));
}

/** The state with a clone that copies the counts (PreFilter extensions change them). */
export function newPreFilterState(f: PreFilterFields): PreFilterState {
  return {
    ...f,
    clone: () =>
      newPreFilterState({
        ...f,
        existingAntiAffinityCounts: copyCounts(f.existingAntiAffinityCounts),
        affinityCounts: copyCounts(f.affinityCounts),
        antiAffinityCounts: copyCounts(f.antiAffinityCounts),
      }),
  };
}

/** Adds `delta` at the node's pair for `key`, if the node has that label. */
function addAtNode(m: TopologyCounts, node: Node | undefined, key: string, delta: number): void {
  const v = node?.metadata.labels?.[key];
  if (v !== undefined) add(m, key, v, delta);
}

/**
 * kube's preFilterState.updateWithPod (AddPod with +1, RemovePod with -1): `other` on `node`
 * counts, as PreFilter would have counted it, in the existing pods' anti-affinity (its terms
 * selecting the incoming pod), and in the incoming pod's affinity and anti-affinity (the incoming
 * pod's terms selecting it).
 */
export function updateWithPod(
  s: PreFilterState,
  other: PodInfo,
  node: Node | undefined,
  delta: number,
): void {
  for (const t of other.affinity.requiredAntiAffinity) {
    if (termMatches(t, s.pod, s.nsLabels))
      addAtNode(s.existingAntiAffinityCounts, node, t.topologyKey, delta);
  }
  const req = s.terms.requiredAffinity;
  if (podMatchesAllAffinityTerms(req, other.pod)) {
    for (const t of req) addAtNode(s.affinityCounts, node, t.topologyKey, delta);
  }
  // The incoming pod's terms have their namespace selectors folded into `namespaces`.
  for (const t of s.terms.requiredAntiAffinity) {
    if (termMatches(t, other.pod, undefined)) addAtNode(s.antiAffinityCounts, node, t.topologyKey, delta);
  }
}

function nodeLabels(info: NodeInfo): Labels {
  return info.node?.metadata.labels ?? {};
}

/** The pairs where existing pods' required anti-affinity terms on one node select `pod`. */
export function existingAntiOnNode(pod: Pod, nsLabels: Labels, info: NodeInfo): [string, string][] {
  const out: [string, string][] = [];
  const labels = nodeLabels(info);
  for (const existing of info.podsWithRequiredAntiAffinity.values()) {
    for (const t of existing.affinity.requiredAntiAffinity) {
      const v = labels[t.topologyKey];
      if (v !== undefined && termMatches(t, pod, nsLabels)) out.push([t.topologyKey, v]);
    }
  }
  return out;
}

/** For each existing pod with required anti-affinity, the pairs where its terms match `pod`. */
export function existingAntiAffinityCounts(
  nodes: readonly NodeInfo[],
  onNode: (info: NodeInfo) => readonly [string, string][],
): TopologyCounts {
  const counts: TopologyCounts = new Map();
  for (const info of nodes) for (const [k, v] of onNode(info)) add(counts, k, v, 1);
  return counts;
}

/** On one node: pods matching all required affinity terms, and pods matching each anti-affinity term. */
export interface IncomingOnNode {
  readonly affinity: number;
  readonly anti: readonly number[];
}

export function incomingOnNode(terms: PodAffinityTerms, info: NodeInfo): IncomingOnNode {
  const req = terms.requiredAffinity;
  const anti = terms.requiredAntiAffinity.map(() => 0);
  let affinity = 0;
  for (const { pod: existing } of info.pods.values()) {
    if (req.length > 0 && podMatchesAllAffinityTerms(req, existing)) affinity++;
    terms.requiredAntiAffinity.forEach((t, i) => {
      if (termMatches(t, existing, undefined)) anti[i] = (anti[i] as number) + 1;
    });
  }
  return { affinity, anti };
}

/** Existing pods matching the incoming pod's required affinity and anti-affinity terms. */
export function incomingAffinityCounts(
  terms: PodAffinityTerms,
  nodes: readonly NodeInfo[],
  onNode: (info: NodeInfo) => IncomingOnNode,
): { affinity: TopologyCounts; antiAffinity: TopologyCounts } {
  const affinity: TopologyCounts = new Map();
  const antiAffinity: TopologyCounts = new Map();
  const req = terms.requiredAffinity;
  const anti = terms.requiredAntiAffinity;
  if (req.length === 0 && anti.length === 0) return { affinity, antiAffinity };
  for (const info of nodes) {
    const labels = nodeLabels(info);
    const c = onNode(info);
    if (c.affinity > 0) {
      for (const t of req) {
        const v = labels[t.topologyKey];
        if (v !== undefined) add(affinity, t.topologyKey, v, c.affinity);
      }
    }
    anti.forEach((t, i) => {
      const n = c.anti[i] as number;
      const v = labels[t.topologyKey];
      if (n > 0 && v !== undefined) add(antiAffinity, t.topologyKey, v, n);
    });
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
  const labels = nodeLabels(info);
  for (const [k, byValue] of s.existingAntiAffinityCounts) {
    const v = labels[k];
    if (v !== undefined && (byValue.get(v) ?? 0) > 0) return false;
  }
  return true;
}
