import {
  labelSelectorFromRequirements,
  labelSelectorFromSet,
  labelSelectorFromSpec,
  type LabelSelector,
} from '@keel/apimachinery';
import type { Labels } from '../../framework/affinity-terms.js';
import type { ClusterObjects } from '../../framework/interface.js';
import type { NodeInfo, PodInfo } from '../../framework/node-info.js';
import type { Node, Pod, TopologySpreadConstraint } from '../../framework/types.js';
import { doNotScheduleTaint, findUntoleratedTaint } from '../helper/tolerations.js';

/** kube's internal topologySpreadConstraint: a pod's constraint with its selector parsed. */
export interface Constraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: LabelSelector;
  readonly minDomains: number;
  readonly honorNodeAffinity: boolean;
  readonly honorNodeTaints: boolean;
}

/**
 * The constraints with `whenUnsatisfiable === action`, selectors parsed, and matchLabelKeys folded
 * in: each listed key the pod has a label for adds `key=value` to the selector.
 */
export function filterConstraints(
  constraints: readonly TopologySpreadConstraint[],
  podLabels: Labels,
  action: string,
): Constraint[] {
  const out: Constraint[] = [];
  for (const c of constraints) {
    if (c.whenUnsatisfiable !== action) continue;
    let selector = labelSelectorFromSpec(c.labelSelector);
    const keys = (c.matchLabelKeys ?? []).filter((k) => Object.hasOwn(podLabels, k));
    if (keys.length > 0) {
      const extra = labelSelectorFromSet(Object.fromEntries(keys.map((k) => [k, podLabels[k] as string])));
      selector = labelSelectorFromRequirements([...extra.requirements, ...selector.requirements]);
    }
    out.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector,
      minDomains: c.minDomains ?? 1,
      honorNodeAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
      honorNodeTaints: (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor',
    });
  }
  return out;
}

/**
 * kube's helper.DefaultSelector as far as Keel serves the objects: the merged selectors of the
 * services in the pod's namespace that select it (Keel serves no ReplicaSets, StatefulSets or
 * ReplicationControllers, whose selectors kube also merges in).
 */
export function defaultSelector(pod: Pod, objects: ClusterObjects): LabelSelector | undefined {
  const labels = pod.metadata.labels ?? {};
  const merged: Record<string, string> = {};
  let any = false;
  for (const sel of objects.serviceSelectors(pod.metadata.namespace ?? '')) {
    if (!Object.entries(sel).every(([k, v]) => labels[k] === v)) continue;
    Object.assign(merged, sel);
    any = true;
  }
  if (!any || Object.keys(merged).length === 0) return undefined;
  return labelSelectorFromSet(merged);
}

/** The pod's own constraints for `action`, or the default ones with the deduced selector. */
export function podConstraints(
  pod: Pod,
  action: string,
  defaults: readonly TopologySpreadConstraint[],
  objects: ClusterObjects,
): Constraint[] {
  const own = pod.spec.topologySpreadConstraints ?? [];
  const labels = pod.metadata.labels ?? {};
  if (own.length > 0) return filterConstraints(own, labels, action);
  const cs = filterConstraints(defaults, labels, action);
  if (cs.length === 0) return cs;
  const selector = defaultSelector(pod, objects);
  if (!selector) return [];
  return cs.map((c) => ({ ...c, selector }));
}

/** Whether the node has every constraint's topology key. */
export function nodeHasAllTopologyKeys(labels: Labels, constraints: readonly Constraint[]): boolean {
  for (const c of constraints) if (!Object.hasOwn(labels, c.topologyKey)) return false;
  return true;
}

/** nodeAffinityPolicy / nodeTaintsPolicy: whether the node's pods count for the constraint. */
export function matchesInclusionPolicies(
  c: Constraint,
  pod: Pod,
  node: Node,
  requiredAffinity: ((node: Node) => boolean) | undefined,
): boolean {
  if (c.honorNodeAffinity && requiredAffinity && !requiredAffinity(node)) return false;
  if (c.honorNodeTaints) {
    const taint = findUntoleratedTaint(
      node.spec?.taints ?? [],
      pod.spec.tolerations ?? [],
      doNotScheduleTaint,
    );
    if (taint) return false;
  }
  return true;
}

/** Counts a constraint's matching pods on one node (memoized by the plugin). */
export type CountOnNode = (info: NodeInfo, c: Constraint, ns: string) => number;

/** A string naming a selector: nil (nothing) and `{}` (everything) both print as ''. */
export function selectorKey(selector: LabelSelector): string {
  return `${selector.toString()}#${selector.isEmpty() ? 'E' : ''}`;
}

/**
 * Pods in `ns` matching the selector, terminating pods excluded. An empty selector counts nothing
 * (kube returns 0 for `selector.Empty()`).
 */
export function countPodsMatchSelector(
  pods: ReadonlyMap<string, PodInfo>,
  selector: LabelSelector,
  ns: string,
): number {
  if (selector.isEmpty()) return 0;
  let n = 0;
  for (const { pod } of pods.values()) {
    if (pod.metadata.deletionTimestamp || (pod.metadata.namespace ?? '') !== ns) continue;
    if (selector.matches(pod.metadata.labels ?? {})) n++;
  }
  return n;
}
