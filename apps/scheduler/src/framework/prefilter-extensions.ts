/**
 * kube's PreFilterExtensions as the framework runs them: plugins that precompute counts in
 * PreFilter keep them in step with pods added to or removed from a node copy, in a cloned cycle
 * state (nominated pods, preemption's dry run).
 */
import type { CycleState } from './cycle-state.js';
import type { FilterRunner, NominatedCell, PreFilterPlugin } from './interface.js';
import type { NodeInfo, PodInfo } from './node-info.js';
import { Status, type MaybeStatus } from './status.js';
import { podUid, type Pod } from './types.js';

/**
 * Each PreFilter plugin with the extension whose Filter is not skipped this cycle sees `other`
 * added to (or removed from) `nodeInfo`. The first failure is an Error status.
 */
export function runPreFilterExtension(
  plugins: readonly PreFilterPlugin[],
  op: 'AddPod' | 'RemovePod',
  state: CycleState,
  pod: Pod,
  other: PodInfo,
  nodeInfo: NodeInfo,
): MaybeStatus {
  for (const pl of plugins) {
    if (state.skipFilterPlugins.has(pl.name)) continue;
    if (op === 'AddPod' ? !pl.addPod : !pl.removePod) continue;
    let s: MaybeStatus;
    try {
      s =
        op === 'AddPod'
          ? pl.addPod?.(state, pod, other, nodeInfo)
          : pl.removePod?.(state, pod, other, nodeInfo);
    } catch (err) {
      s = Status.fromError(err);
    }
    if (!s || s.isSuccess()) continue;
    return Status.fromError(
      new Error(`running ${op} on PreFilter plugin ${JSON.stringify(pl.name)}: ${s.message()}`),
    ).withPlugin(pl.name);
  }
  return undefined;
}

/**
 * Whether any PreFilter plugin with AddPod/RemovePod extensions runs its Filter this cycle: when
 * none does, pods added to or removed from a node copy change nothing in the cycle state, so the
 * state need not be cloned for them.
 */
export function preFilterExtensionsActive(plugins: readonly PreFilterPlugin[], state: CycleState): boolean {
  for (const pl of plugins) {
    if ((pl.addPod || pl.removePod) && !state.skipFilterPlugins.has(pl.name)) return true;
  }
  return false;
}

/**
 * `nodeInfo` with all of `nominated` added, kept on it for as long as neither the node (its
 * generation) nor its nominated pods change. A cycle that fails over the whole cluster filters
 * every node; nominated pods pile up on thousands of nodes while preemptors wait to be retried,
 * and copying each of those nodes in every such cycle was most of what the nominations cost.
 * Copies are never changed after they are made (Filter only reads its node).
 */
function copyWithAll(nodeInfo: NodeInfo, nominated: readonly PodInfo[]): NodeInfo {
  const kept = nodeInfo.withNominated;
  if (kept && kept.generation === nodeInfo.generation && kept.nominated === nominated) return kept.copy;
  const copy = nodeInfo.clone();
  for (const p of nominated) copy.addPod(p);
  nodeInfo.withNominated = { generation: nodeInfo.generation, nominated, copy };
  return copy;
}

/**
 * `nodeInfo` with the pods nominated to it of priority ≥ the pod's added (the pod itself
 * excepted), for a cycle in which no PreFilter extension runs; undefined if none counts.
 * `selfHere`: the pod is itself nominated to this node. When all count (the common case, read
 * off the cell without touching its pods), the copy is one kept across cycles, so a failed cycle
 * allocates nothing for its nominated nodes.
 */
export function nodeWithNominatedPods(
  cell: Pick<NominatedCell, 'pods' | 'minPriority'>,
  pod: Pod,
  nodeInfo: NodeInfo,
  selfHere: boolean,
): NodeInfo | undefined {
  const nominated = cell.pods;
  if (nominated.length === 0) return undefined;
  const priority = pod.spec.priority ?? 0;
  if (!selfHere && cell.minPriority >= priority) return copyWithAll(nodeInfo, nominated);
  const uid = podUid(pod);
  let included = 0;
  for (const p of nominated) if ((p.pod.spec.priority ?? 0) >= priority && p.key !== uid) included++;
  if (included === 0) return undefined;
  if (included === nominated.length) return copyWithAll(nodeInfo, nominated);
  const copy = nodeInfo.clone();
  for (const p of nominated) if ((p.pod.spec.priority ?? 0) >= priority && p.key !== uid) copy.addPod(p);
  return copy;
}

/**
 * kube's addGENominatedPods: copies of the node and state with the pods nominated to the node of
 * priority ≥ the pod's added (the pod itself excepted), or undefined if there are none, so nodes
 * without nominated pods cost nothing. When no PreFilter extension runs this cycle the state is
 * the cycle's own (nothing would change it), and when every nominated pod counts the node copy is
 * one kept across cycles. Throws when a PreFilter extension fails.
 */
export function addNominatedPods(
  runner: Pick<FilterRunner, 'runPreFilterExtensionAddPod' | 'preFilterExtensionsActive'>,
  /** The pods nominated to the node (the nominator's list for it). */
  nominated: readonly PodInfo[],
  state: CycleState,
  pod: Pod,
  nodeInfo: NodeInfo,
): { state: CycleState; nodeInfo: NodeInfo } | undefined {
  if (!runner.preFilterExtensionsActive(state)) {
    // No cell here: -Infinity makes it read each pod's priority.
    const copy = nodeWithNominatedPods({ pods: nominated, minPriority: -Infinity }, pod, nodeInfo, true);
    return copy ? { state, nodeInfo: copy } : undefined;
  }
  const priority = pod.spec.priority ?? 0;
  const uid = podUid(pod);
  let included = 0;
  for (const p of nominated) if ((p.pod.spec.priority ?? 0) >= priority && p.key !== uid) included++;
  if (included === 0) return undefined;
  const out = { state: state.clone(), nodeInfo: nodeInfo.clone() };
  for (const p of nominated) {
    if ((p.pod.spec.priority ?? 0) < priority || p.key === uid) continue;
    out.nodeInfo.addPod(p);
    const s = runner.runPreFilterExtensionAddPod(out.state, pod, p, out.nodeInfo);
    if (s) throw s.asError();
  }
  return out;
}

/** `filterWithNominatedInPlace` could not add the nominated pods in place. */
export const NOT_IN_PLACE: unique symbol = Symbol('not in place');

/**
 * kube's RunFilterPluginsWithNominatedPods on a node copy the caller owns (preemption's dry run),
 * when no PreFilter extension runs this cycle (the state is not copied): the pods nominated to
 * the node of priority ≥ the pod's (the pod itself excepted) join `copy` for the first run and
 * leave it again, so no copy of the copy is made. A nominated pod already on the node (a race
 * with its binding) would not leave it as it was: then NOT_IN_PLACE, and the caller copies.
 */
export function filterWithNominatedInPlace(
  runner: { runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus },
  /** The pods nominated to the node (the nominator's list for it). */
  nominated: readonly PodInfo[],
  state: CycleState,
  pod: Pod,
  copy: NodeInfo,
): MaybeStatus | typeof NOT_IN_PLACE {
  const priority = pod.spec.priority ?? 0;
  const uid = podUid(pod);
  let included = 0;
  for (const p of nominated) {
    if ((p.pod.spec.priority ?? 0) < priority || p.key === uid) continue;
    if (copy.pods.has(p.key)) return NOT_IN_PLACE;
    included++;
  }
  if (included === 0) return runner.runFilterPlugins(state, pod, copy);
  const added: PodInfo[] = [];
  let s: MaybeStatus;
  try {
    for (const p of nominated) {
      if ((p.pod.spec.priority ?? 0) < priority || p.key === uid) continue;
      copy.addPod(p);
      added.push(p);
    }
    s = runner.runFilterPlugins(state, pod, copy);
  } finally {
    for (const p of added) copy.removePod(p.key);
  }
  return s ?? runner.runFilterPlugins(state, pod, copy);
}
