import { labelSelectorFromSpec, type LabelSelector } from '@keel/apimachinery';
import type { Pod, PodAffinity, PodAffinityTerm } from './types.js';

export type Labels = Readonly<Record<string, string>>;

/**
 * kube's framework.AffinityTerm: a PodAffinityTerm with its selectors parsed. A pod matches when it
 * is in one of `namespaces` (or its namespace's labels match `namespaceSelector`) and its labels
 * match `selector`. A term naming neither namespaces nor a namespace selector means the owning
 * pod's own namespace.
 */
export interface AffinityTerm {
  readonly namespaces: Set<string>;
  readonly selector: LabelSelector;
  /** A nil namespaceSelector matches nothing, `{}` every namespace. */
  namespaceSelector: LabelSelector;
  readonly topologyKey: string;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  readonly weight: number;
}

/** The parsed pod (anti-)affinity terms of one pod (the affinity half of kube's PodInfo). */
export interface PodAffinityTerms {
  readonly requiredAffinity: readonly AffinityTerm[];
  readonly requiredAntiAffinity: readonly AffinityTerm[];
  readonly preferredAffinity: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinity: readonly WeightedAffinityTerm[];
}

export const NO_AFFINITY_TERMS: PodAffinityTerms = {
  requiredAffinity: [],
  requiredAntiAffinity: [],
  preferredAffinity: [],
  preferredAntiAffinity: [],
};

function newAffinityTerm(pod: Pod, t: PodAffinityTerm): AffinityTerm {
  const names = t.namespaces ?? [];
  const namespaces =
    names.length === 0 && !t.namespaceSelector ? new Set([pod.metadata.namespace ?? '']) : new Set(names);
  return {
    namespaces,
    selector: labelSelectorFromSpec(t.labelSelector),
    namespaceSelector: labelSelectorFromSpec(t.namespaceSelector),
    topologyKey: t.topologyKey,
  };
}

function required(pod: Pod, a: PodAffinity | null | undefined): AffinityTerm[] {
  return (a?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => newAffinityTerm(pod, t));
}

function preferred(pod: Pod, a: PodAffinity | null | undefined): WeightedAffinityTerm[] {
  return (a?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => ({
    ...newAffinityTerm(pod, w.podAffinityTerm),
    weight: w.weight,
  }));
}

/** Whether the pod has pod affinity or anti-affinity at all (kube's podWithAffinity). */
export function hasPodAffinity(pod: Pod): boolean {
  const a = pod.spec.affinity;
  return !!a && (!!a.podAffinity || !!a.podAntiAffinity);
}

/**
 * Parses a pod's (anti-)affinity terms. Throws (as kube's NewPodInfo returns an error) when a
 * selector is invalid, which API validation normally prevents.
 */
export function podAffinityTerms(pod: Pod): PodAffinityTerms {
  if (!hasPodAffinity(pod)) return NO_AFFINITY_TERMS;
  const a = pod.spec.affinity;
  return {
    requiredAffinity: required(pod, a?.podAffinity),
    requiredAntiAffinity: required(pod, a?.podAntiAffinity),
    preferredAffinity: preferred(pod, a?.podAffinity),
    preferredAntiAffinity: preferred(pod, a?.podAntiAffinity),
  };
}

/**
 * kube's AffinityTerm.Matches: `nsLabels` are the labels of the pod's namespace, or undefined when
 * the caller already folded the namespace selector into `namespaces` (then only an `{}` selector,
 * which matches every namespace, still applies).
 */
export function termMatches(term: AffinityTerm, pod: Pod, nsLabels: Labels | undefined): boolean {
  if (term.namespaces.has(pod.metadata.namespace ?? '') || term.namespaceSelector.matches(nsLabels ?? {})) {
    return term.selector.matches(pod.metadata.labels ?? {});
  }
  return false;
}

/** True iff the pod matches every term (false for no terms), kube's podMatchesAllAffinityTerms. */
export function podMatchesAllAffinityTerms(terms: readonly AffinityTerm[], pod: Pod): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!termMatches(t, pod, undefined)) return false;
  return true;
}

/**
 * A string naming what a term selects (its namespaces, label selector and namespace selector, not
 * its topology key): terms with equal keys match the same pods. Nothing and `{}` selectors print
 * alike, so emptiness is spelled out.
 */
export function termKey(t: AffinityTerm): string {
  const sel = (s: LabelSelector) => `${s.toString()}#${s.isEmpty() ? 'E' : ''}`;
  return `${[...t.namespaces].sort().join(',')}|${sel(t.selector)}|${sel(t.namespaceSelector)}`;
}
