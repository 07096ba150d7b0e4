import { labelSelectorFromSpec } from '@keel/apimachinery';
import type { CycleState } from '../../framework/cycle-state.js';
import type { FilterRunner } from '../../framework/interface.js';
import type { NodeInfo, PodInfo } from '../../framework/node-info.js';
import type { PodDisruptionBudget } from '../../framework/preemption-handle.js';
import { Status } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { podPriority } from '../priority-sort/priority-sort.js';

export const ERR_NO_VICTIMS = 'No preemption victims found for incoming pod';

/**
 * kube's GetPodStartTime: `status.startTime`, or now for a pod that has not started (Keel runs no
 * kubelet, so that is most pods).
 */
export function podStartTime(pod: Pod, nowMs: number): number {
  const t = pod.status?.['startTime'];
  const ms = typeof t === 'string' ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? nowMs : ms;
}

/** kube's MoreImportantPod: higher priority, then the one that started earlier. */
export function moreImportantPod(a: Pod, b: Pod, nowMs: number): boolean {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pa > pb;
  return podStartTime(a, nowMs) < podStartTime(b, nowMs);
}

/**
 * kube's filterPodsWithPDBViolation: walking the pods in order, each budget in the pod's namespace
 * whose (non-empty) selector matches it loses one allowed disruption, unless the pod is already
 * among its disrupted pods; a pod that takes any budget below 0 violates it. Order is kept.
 */
export function splitByPDBViolation(
  pods: readonly PodInfo[],
  pdbs: readonly PodDisruptionBudget[],
): { violating: readonly PodInfo[]; nonViolating: readonly PodInfo[] } {
  // No budgets (the common case, and every dry-run candidate asks): nothing to match.
  if (pdbs.length === 0) return { violating: [], nonViolating: pods };
  const allowed = pdbs.map((p) => p.status?.disruptionsAllowed ?? 0);
  const selectors = pdbs.map((p) => {
    try {
      const sel = labelSelectorFromSpec(p.spec?.selector);
      return sel.isEmpty() ? undefined : sel;
    } catch {
      return undefined; // an invalid selector matches nothing, as in kube
    }
  });
  const violating: PodInfo[] = [];
  const nonViolating: PodInfo[] = [];
  for (const pi of pods) {
    const labels = pi.pod.metadata.labels ?? {};
    let violated = false;
    if (Object.keys(labels).length > 0) {
      pdbs.forEach((pdb, i) => {
        const sel = selectors[i];
        if (!sel || (pdb.metadata.namespace ?? '') !== (pi.pod.metadata.namespace ?? '')) return;
        if (!sel.matches(labels)) return;
        if (Object.hasOwn(pdb.status?.disruptedPods ?? {}, pi.pod.metadata.name ?? '')) return;
        allowed[i] = (allowed[i] ?? 0) - 1;
        if ((allowed[i] ?? 0) < 0) violated = true;
      });
    }
    (violated ? violating : nonViolating).push(pi);
  }
  return { violating, nonViolating };
}

export type VictimsOutcome =
  | { readonly ok: true; readonly victims: Pod[]; readonly numPDBViolations: number }
  | { readonly ok: false; readonly status: Status };

/**
 * Takes `p` off the node copy and, when a PreFilter extension runs this cycle (`extensions`), out
 * of the PreFilter state (kube's removePod in the dry run).
 */
function removePod(
  filters: FilterRunner,
  state: CycleState,
  pod: Pod,
  copy: NodeInfo,
  p: PodInfo,
  extensions: boolean,
): void {
  copy.removePod(p.key);
  const s = extensions ? filters.runPreFilterExtensionRemovePod(state, pod, p, copy) : undefined;
  if (s) throw s.asError();
}

/** Puts `p` back on the node copy and (as removePod) into the PreFilter state. */
function addPod(
  filters: FilterRunner,
  state: CycleState,
  pod: Pod,
  copy: NodeInfo,
  p: PodInfo,
  extensions: boolean,
): void {
  copy.addPod(p);
  const s = extensions ? filters.runPreFilterExtensionAddPod(state, pod, p, copy) : undefined;
  if (s) throw s.asError();
}

/**
 * kube's SelectVictimsOnNode, on copies of the node and of the cycle state: remove every pod of
 * lower priority (the PreFilter extensions uncount each, so affinity and spreading see them gone);
 * if the pod then fits, put them back one at a time, most important first and budget-violating
 * ones before the others, keeping each whose return still lets the pod fit. Those that cannot
 * return are the victims (most important first) and the count of them that violate a budget.
 * A failing PreFilter extension or filter throws.
 */
export function selectVictimsOnNode(
  filters: FilterRunner,
  cycleState: CycleState,
  pod: Pod,
  node: NodeInfo,
  pdbs: readonly PodDisruptionBudget[],
  nowMs: number,
  scratch?: NodeInfo,
): VictimsOutcome {
  const priority = podPriority(pod);
  const potential: PodInfo[] = [];
  for (const p of node.pods.values()) if (podPriority(p.pod) < priority) potential.push(p);
  if (potential.length === 0) return { ok: false, status: Status.unresolvable(ERR_NO_VICTIMS) };
  // No PreFilter extension to see the removals: the state stays as it is, so it is not copied.
  const extensions = filters.preFilterExtensionsActive(cycleState);
  const state = extensions ? cycleState.clone() : cycleState;
  // The dry run hands in one scratch NodeInfo for all its candidates: nothing keeps the copy.
  // Without extensions to tell, the lower-priority pods are simply not copied (the same totals as
  // adding and then removing them).
  let copy: NodeInfo;
  if (scratch && !extensions) {
    scratch.copyFrom(node, (p) => podPriority(p.pod) >= priority);
    copy = scratch;
  } else {
    if (scratch) scratch.copyFrom(node);
    copy = scratch ?? node.clone();
    for (const p of potential) removePod(filters, state, pod, copy, p, extensions);
  }
  // The copy is this run's own (the scratch or a fresh clone): nominated pods may join it for
  // a filter run and leave it again.
  const scratchCopy = true;
  const s = filters.runFilterPluginsWithNominatedPods(state, pod, copy, scratchCopy);
  if (s) return { ok: false, status: s };

  if (potential.length > 1) {
    potential.sort((a, b) =>
      moreImportantPod(a.pod, b.pod, nowMs) ? -1 : moreImportantPod(b.pod, a.pod, nowMs) ? 1 : 0,
    );
  }
  const { violating, nonViolating } = splitByPDBViolation(potential, pdbs);
  const victims: PodInfo[] = [];
  const reprieve = (p: PodInfo): boolean => {
    addPod(filters, state, pod, copy, p, extensions);
    const status = filters.runFilterPluginsWithNominatedPods(state, pod, copy, scratchCopy);
    if (status?.code === 'Error') throw status.asError();
    if (!status) return true;
    removePod(filters, state, pod, copy, p, extensions);
    victims.push(p);
    return false;
  };
  let numPDBViolations = 0;
  for (const p of violating) if (!reprieve(p)) numPDBViolations++;
  for (const p of nonViolating) reprieve(p);
  if (violating.length > 0 && nonViolating.length > 0) {
    victims.sort((a, b) =>
      moreImportantPod(a.pod, b.pod, nowMs) ? -1 : moreImportantPod(b.pod, a.pod, nowMs) ? 1 : 0,
    );
  }
  return { ok: true, victims: victims.map((v) => v.pod), numPDBViolations };
}
