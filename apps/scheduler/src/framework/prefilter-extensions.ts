/**
 * kube's PreFilterExtensions as the framework runs them: plugins that precompute counts in
 * PreFilter keep them in step with pods added to or removed from a node copy, in a cloned cycle
 * state (nominated pods, preemption's dry run).
 */
import type { CycleState } from './cycle-state.js';
import type { FilterRunner, PodNominator, PreFilterPlugin } from './interface.js';
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
 * kube's addGENominatedPods: copies of the node and state with the pods nominated to the node of
 * priority ≥ the pod's added (the pod itself excepted), or undefined if there are none, so nodes
 * without nominated pods cost nothing. Throws when a PreFilter extension fails.
 */
export function addNominatedPods(
  runner: Pick<FilterRunner, 'runPreFilterExtensionAddPod'>,
  nominator: PodNominator | undefined,
  state: CycleState,
  pod: Pod,
  nodeInfo: NodeInfo,
): { state: CycleState; nodeInfo: NodeInfo } | undefined {
  const nominated = nominator?.nominatedPodsForNode(nodeInfo.name);
  if (!nominated || nominated.length === 0) return undefined;
  const priority = pod.spec.priority ?? 0;
  const uid = podUid(pod);
  let out: { state: CycleState; nodeInfo: NodeInfo } | undefined;
  for (const p of nominated) {
    if ((p.pod.spec.priority ?? 0) < priority || p.key === uid) continue;
    out ??= { state: state.clone(), nodeInfo: nodeInfo.clone() };
    out.nodeInfo.addPod(p);
    const s = runner.runPreFilterExtensionAddPod(out.state, pod, p, out.nodeInfo);
    if (s) throw s.asError();
  }
  return out;
}
