import type { TermCounts } from '../../cache/pod-count-index.js';
import type { Snapshot } from '../../cache/snapshot.js';
import {
  podMatchesAllAffinityTerms,
  termKey,
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

/**
 * Adds the per-value `counts` under `key`. The first map for a key is used as it is (the index's
 * maps are never changed once read, and PreFilter extensions change only clones, which copy);
 * a second one for the same key is summed into a copy.
 */
function addAll(
  m: TopologyCounts,
  key: string,
  counts: ReadonlyMap<string, number>,
  owned: Set<Map<string, number>>,
): void {
  if (counts.size === 0) return;
  let byValue = m.get(key);
  if (!byValue) {
    // Shared read-only (see above): never changed through this state.
    m.set(key, counts as Map<string, number>);
    return;
  }
  if (!owned.has(byValue)) {
    byValue = new Map(byValue);
    owned.add(byValue);
    m.set(key, byValue);
  }
  for (const [v, n] of counts) byValue.set(v, (byValue.get(v) ?? 0) + n);
}

/** Existing pods' required anti-affinity terms matching `pod`, counted at their pods' pairs. */
export function existingAntiAffinityCounts(
  terms: Iterable<TermCounts>,
  pod: Pod,
  nsLabels: Labels,
): TopologyCounts {
  const out: TopologyCounts = new Map();
  const owned = new Set<Map<string, number>>();
  for (const { term, counts } of terms) {
    if (termMatches(term, pod, nsLabels)) addAll(out, term.topologyKey, counts, owned);
  }
  return out;
}

/**
 * Existing pods matching all the incoming pod's required affinity terms, at each term's pairs, and
 * those matching each of its required anti-affinity terms, from the snapshot's index.
 */
export function incomingAffinityCounts(
  terms: PodAffinityTerms,
  snapshot: Pick<Snapshot, 'podCounts'>,
): { affinity: TopologyCounts; antiAffinity: TopologyCounts } {
  const affinity: TopologyCounts = new Map();
  const antiAffinity: TopologyCounts = new Map();
  const owned = new Set<Map<string, number>>();
  const req = terms.requiredAffinity;
  if (req.length > 0) {
    const key = `all\u0000${req.map(termKey).join(';')}`;
    const matches = (p: Pod) => podMatchesAllAffinityTerms(req, p);
    for (const t of req) {
      addAll(
        affinity,
        t.topologyKey,
        snapshot.podCounts({ key, matches, topologyKey: t.topologyKey }),
        owned,
      );
    }
  }
  for (const t of terms.requiredAntiAffinity) {
    // The incoming pod's terms have their namespace selectors folded into `namespaces`.
    const counts = snapshot.podCounts({
      key: `one\u0000${termKey(t)}`,
      matches: (p) => termMatches(t, p, undefined),
      topologyKey: t.topologyKey,
    });
    addAll(antiAffinity, t.topologyKey, counts, owned);
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
