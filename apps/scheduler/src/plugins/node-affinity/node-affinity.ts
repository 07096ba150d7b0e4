import { stateKey, type CycleState } from '../../framework/cycle-state.js';
import type {
  FilterPlugin,
  PluginFactory,
  PreFilterPlugin,
  PreScorePlugin,
  ScorePlugin,
} from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Node, Pod } from '../../framework/types.js';
import { defaultNormalizeScore } from '../helper/normalize-score.js';
import { preferredNodeAffinity, requiredNodeAffinity } from '../helper/node-selector.js';

export const NAME = 'NodeAffinity';
export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";

type Required = ((node: Node) => boolean) | undefined;
type Preferred = ((node: Node) => number) | undefined;

const requiredKey = stateKey<Required>('PreFilter' + NAME);
const preferredKey = stateKey<Preferred>('PreScore' + NAME);

/** Whether the node satisfies the pod's nodeSelector and required node affinity. */
export function fits(pod: Pod, node: Node): boolean {
  return requiredNodeAffinity(pod)?.(node) ?? true;
}

/**
 * Filter: `spec.nodeSelector` plus required node affinity, compiled once per cycle in PreFilter
 * (which skips the filter for pods with neither). Score: the summed weights of the preferred terms
 * a node matches, normalized so the best node gets 100.
 */
export class NodeAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;

  preFilter(state: CycleState, pod: Pod): MaybeStatus {
    const required = requiredNodeAffinity(pod);
    if (!required) return Status.skip();
    state.write(requiredKey, required);
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const node = nodeInfo.node;
    if (!node) return undefined;
    const required = state.read(requiredKey) ?? requiredNodeAffinity(pod);
    return !required || required(node) ? undefined : Status.unresolvable(ERR_REASON_POD);
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus {
    if (nodes.length === 0) return undefined;
    const preferred = preferredNodeAffinity(pod);
    if (!preferred) return Status.skip();
    state.write(preferredKey, preferred);
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const node = nodeInfo.node;
    if (!node) return 0;
    const preferred = state.read(preferredKey) ?? preferredNodeAffinity(pod);
    return preferred?.(node) ?? 0;
  }

  normalizeScores(scores: number[]): void {
    defaultNormalizeScore(scores, false);
  }
}

export const create: PluginFactory = () => new NodeAffinity();
