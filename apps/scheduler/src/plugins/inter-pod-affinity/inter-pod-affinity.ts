import { nothingLabelSelector } from '@keel/apimachinery';
import {
  podAffinityTerms,
  termKey,
  termMatches,
  type AffinityTerm,
  type PodAffinityTerms,
} from '../../framework/affinity-terms.js';
import { stateKey, type CycleState } from '../../framework/cycle-state.js';
import {
  NO_CLUSTER_OBJECTS,
  type ClusterObjects,
  type FilterPlugin,
  type PluginFactory,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScorePlugin,
} from '../../framework/interface.js';
import type { NodeInfo, PodInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { parseInterPodAffinityArgs, type InterPodAffinityArgs } from './args.js';
import {
  ERR_REASON_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
  existingAntiAffinityCounts,
  incomingAffinityCounts,
  satisfiesExistingPodsAntiAffinity,
  satisfiesPodAffinity,
  satisfiesPodAntiAffinity,
  newPreFilterState,
  updateWithPod,
  type PreFilterState,
} from './filtering.js';
import { addScore, existingSide, incomingPreferred, normalize, scoreNode, type ScoreMap } from './scoring.js';

export const NAME = 'InterPodAffinity';

const preFilterKey = stateKey<PreFilterState>('PreFilter' + NAME);
const preScoreKey = stateKey<ScoreMap>('PreScore' + NAME);

function snapshotOf(state: CycleState) {
  if (!state.snapshot) throw new Error('no node snapshot in the cycle state');
  return state.snapshot;
}

/**
 * Pod affinity and anti-affinity (kube's InterPodAffinity). Filter: the incoming pod's required
 * affinity and anti-affinity, and existing pods' required anti-affinity against it, counted per
 * topology pair in PreFilter. Score: preferred terms both ways and existing pods' required
 * affinity (× hardPodAffinityWeight), min-max normalized.
 */
export class InterPodAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;

  constructor(
    private readonly args: InterPodAffinityArgs,
    private readonly objects: ClusterObjects,
  ) {}

  /**
   * kube's mergeAffinityTermNamespacesIfNotEmpty: a namespace selector becomes the names of the
   * namespaces it matches now, so matching existing pods needs no namespace lookups.
   */
  private mergeNamespaces(terms: readonly AffinityTerm[]): void {
    for (const t of terms) {
      if (t.namespaceSelector.isEmpty()) continue;
      for (const ns of this.objects.namespacesMatching(t.namespaceSelector)) t.namespaces.add(ns);
      t.namespaceSelector = nothingLabelSelector();
    }
  }

  preFilter(state: CycleState, pod: Pod): MaybeStatus {
    const snapshot = snapshotOf(state);
    const terms = podAffinityTerms(pod);
    if (
      !snapshot.anyPodsWithRequiredAntiAffinity() &&
      terms.requiredAffinity.length === 0 &&
      terms.requiredAntiAffinity.length === 0
    ) {
      return Status.skip();
    }
    this.mergeNamespaces(terms.requiredAffinity);
    this.mergeNamespaces(terms.requiredAntiAffinity);
    const nsLabels = this.objects.namespaceLabels(pod.metadata.namespace ?? '') ?? {};
    // From the cache's index: the cost is the number of matching domains, not of nodes.
    const existing = existingAntiAffinityCounts(
      snapshot.existingTerms('requiredAntiAffinity'),
      pod,
      nsLabels,
    );
    const incoming = incomingAffinityCounts(terms, snapshot);
    if (
      existing.size === 0 &&
      terms.requiredAffinity.length === 0 &&
      terms.requiredAntiAffinity.length === 0
    ) {
      return Status.skip();
    }
    state.write(
      preFilterKey,
      newPreFilterState({
        pod,
        terms,
        nsLabels,
        existingAntiAffinityCounts: existing,
        affinityCounts: incoming.affinity,
        antiAffinityCounts: incoming.antiAffinity,
      }),
    );
    return undefined;
  }

  /** kube's AddPod: counts `podToAdd`, now on `nodeInfo`, in the PreFilter state. */
  addPod(state: CycleState, _pod: Pod, podToAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return this.update(state, podToAdd, nodeInfo, 1);
  }

  /** kube's RemovePod: uncounts `podToRemove`, taken off `nodeInfo`. */
  removePod(state: CycleState, _pod: Pod, podToRemove: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return this.update(state, podToRemove, nodeInfo, -1);
  }

  private update(state: CycleState, other: PodInfo, nodeInfo: NodeInfo, delta: number): MaybeStatus {
    const s = state.read(preFilterKey);
    if (!s) return Status.fromError(new Error(`reading "PreFilter${NAME}" from cycleState: not found`));
    updateWithPod(s, other, nodeInfo.node, delta);
    return undefined;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const s = state.read(preFilterKey);
    if (!s) return Status.fromError(new Error(`reading "PreFilter${NAME}" from cycleState: not found`));
    if (!satisfiesPodAffinity(s, nodeInfo)) return Status.unresolvable(ERR_REASON_AFFINITY_RULES_NOT_MATCH);
    if (!satisfiesPodAntiAffinity(s, nodeInfo))
      return Status.unschedulable(ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
    if (!satisfiesExistingPodsAntiAffinity(s, nodeInfo)) {
      return Status.unschedulable(ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
    }
    return undefined;
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus {
    if (nodes.length === 0) return undefined;
    const a = pod.spec.affinity;
    const hasConstraints =
      (a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0 ||
      (a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
    if (this.args.ignorePreferredTermsOfExistingPods && !hasConstraints) return Status.skip();
    const snapshot = snapshotOf(state);
    // Without preferred terms of its own, only existing pods with affinity can move the score.
    const any = hasConstraints ? snapshot.nodeInfos.length > 0 : snapshot.anyPodsWithAffinity();
    if (!any) return Status.skip();
    const terms: PodAffinityTerms = podAffinityTerms(pod);
    this.mergeNamespaces(terms.preferredAffinity);
    this.mergeNamespaces(terms.preferredAntiAffinity);
    const nsLabels = this.objects.namespaceLabels(pod.metadata.namespace ?? '') ?? {};
    const m: ScoreMap = new Map();
    // From the cache's index: the cost is the number of distinct terms and their domains.
    for (const { term, sign } of incomingPreferred(terms)) {
      const counts = snapshot.podCounts({
        key: `one\u0000${termKey(term)}`,
        matches: (p) => termMatches(term, p, undefined),
        topologyKey: term.topologyKey,
      });
      for (const [v, n] of counts) addScore(m, term.topologyKey, v, sign * term.weight * n);
    }
    existingSide(m, snapshot, { pod, nsLabels, args: this.args });
    if (m.size === 0) return Status.skip();
    state.write(preScoreKey, m);
    return undefined;
  }

  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number {
    const m = state.read(preScoreKey);
    if (!m) throw new Error(`reading "PreScore${NAME}" from cycleState: not found`);
    return scoreNode(m, nodeInfo);
  }

  normalizeScores(scores: number[], state: CycleState): void {
    const m = state.read(preScoreKey);
    if (!m || m.size === 0) return;
    normalize(scores);
  }
}

export const create: PluginFactory = (args, handle) =>
  new InterPodAffinity(parseInterPodAffinityArgs(args), handle.objects ?? NO_CLUSTER_OBJECTS);
