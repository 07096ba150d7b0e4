import {
  labelSelectorFromRequirements,
  labelSelectorFromSet,
  labelSelectorFromSpec,
  type LabelRequirement,
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

/** The owner reference with `controller: true` (kube's metav1.GetControllerOf), read defensively. */
function controllerOf(pod: Pod): { apiVersion: string; kind: string; name: string } | undefined {
  const refs = pod.metadata['ownerReferences'];
  if (!Array.isArray(refs)) return undefined;
  for (const ref of refs as unknown[]) {
    if (typeof ref !== 'object' || ref === null) continue;
    const r = ref as { apiVersion?: unknown; kind?: unknown; name?: unknown; controller?: unknown };
    if (r.controller !== true) continue;
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    return { apiVersion: str(r.apiVersion), kind: str(r.kind), name: str(r.name) };
  }
  return undefined;
}

/** `group/version` or `version` (the core group), as schema.ParseGroupVersion; undefined if invalid. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] ?? '' };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return undefined;
}

/**
 * kube's helper.DefaultSelector: the merged selectors of the services in the pod's namespace that
 * select it, plus the selector of the pod's controller when that is a v1 ReplicationController or
 * an apps/v1 ReplicaSet or StatefulSet the informers know. Controllers are found through the
 * pod's controller reference only, never by matching their selectors against the pod's labels.
 * Undefined when the result selects nothing in particular (kube's `selector.Empty()`).
 */
export function defaultSelector(pod: Pod, objects: ClusterObjects): LabelSelector | undefined {
  const labels = pod.metadata.labels ?? {};
  const ns = pod.metadata.namespace ?? '';
  // Every merged selector matches the pod, so the maps cannot disagree on a key's value.
  const merged: Record<string, string> = {};
  for (const sel of objects.serviceSelectors(ns)) {
    if (!Object.entries(sel).every(([k, v]) => labels[k] === v)) continue;
    Object.assign(merged, sel);
  }
  let extra: readonly LabelRequirement[] = [];
  const owner = controllerOf(pod);
  const gv = owner ? parseGroupVersion(owner.apiVersion) : undefined;
  if (owner && gv?.version === 'v1') {
    if (gv.group === '' && owner.kind === 'ReplicationController') {
      const rc = objects.replicationControllerSelector(ns, owner.name);
      if (rc.found) Object.assign(merged, rc.selector ?? {});
    } else if (gv.group === 'apps' && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) {
      const w = objects.workloadSelector(owner.kind, ns, owner.name);
      // A nil selector (kube's labels.Nothing()) adds no requirements; an unparsable one is skipped.
      if (w.found && w.selector) {
        try {
          extra = labelSelectorFromSpec(w.selector).requirements;
        } catch {
          extra = [];
        }
      }
    }
  }
  const selector = labelSelectorFromRequirements([...labelSelectorFromSet(merged).requirements, ...extra]);
  return selector.isEmpty() ? undefined : selector;
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
  for (const { pod } of pods.values()) if (countsForSpread(pod, selector, ns)) n++;
  return n;
}

/** Whether a pod counts for a constraint (non-empty `selector`): in `ns`, not terminating, matching. */
export function countsForSpread(pod: Pod, selector: LabelSelector, ns: string): boolean {
  if (pod.metadata.deletionTimestamp || (pod.metadata.namespace ?? '') !== ns) return false;
  return selector.matches(pod.metadata.labels ?? {});
}
