import { stateKey, type CycleState } from '../../framework/cycle-state.js';
import type { FilterPlugin, PluginFactory, PreScorePlugin, ScorePlugin } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod, Taint, Toleration } from '../../framework/types.js';
import { defaultNormalizeScore } from '../helper/normalize-score.js';
import {
  TAINT_EFFECT_PREFER_NO_SCHEDULE,
  doNotScheduleTaint,
  findUntoleratedTaint,
  tolerationsTolerateTaint,
} from '../helper/tolerations.js';

export const NAME = 'TaintToleration';

export function errReason(taint: Taint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

/** The pod's tolerations that can tolerate PreferNoSchedule taints (that effect, or any). */
const preferKey = stateKey<readonly Toleration[]>('PreScore' + NAME);

function preferNoScheduleTolerations(pod: Pod): Toleration[] {
  return (pod.spec.tolerations ?? []).filter(
    (t) => !t.effect || t.effect === TAINT_EFFECT_PREFER_NO_SCHEDULE,
  );
}

/** How many PreferNoSchedule taints of the node the pod does not tolerate. */
export function countIntolerablePreferNoSchedule(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): number {
  let n = 0;
  for (const taint of taints) {
    if (taint.effect === TAINT_EFFECT_PREFER_NO_SCHEDULE && !tolerationsTolerateTaint(tolerations, taint))
      n++;
  }
  return n;
}

/**
 * Filter: every NoSchedule / NoExecute taint must be tolerated; the first one that is not is named
 * in the reason. Score: fewer untolerated PreferNoSchedule taints is better.
 */
export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const taints = nodeInfo.taints;
    if (taints.length === 0) return undefined;
    const taint = findUntoleratedTaint(taints, pod.spec.tolerations ?? [], doNotScheduleTaint);
    return taint ? Status.unresolvable(errReason(taint)) : undefined;
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus {
    if (nodes.length === 0) return undefined;
    state.write(preferKey, preferNoScheduleTolerations(pod));
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const tolerations = state.read(preferKey) ?? preferNoScheduleTolerations(pod);
    return countIntolerablePreferNoSchedule(nodeInfo.node?.spec?.taints ?? [], tolerations);
  }

  normalizeScores(scores: number[]): void {
    defaultNormalizeScore(scores, true);
  }
}

export const create: PluginFactory = () => new TaintToleration();
