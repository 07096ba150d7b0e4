import { stateKey, type CycleState } from '../../framework/cycle-state.js';
import type { PluginFactory, PreScorePlugin, ScorePlugin } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { parseBalancedArgs } from '../node-resources-fit/args.js';
import {
  allocationVectors,
  balancedAllocationScore,
  podScoringRequests,
  type ResourceSpec,
} from '../node-resources-fit/resource-allocation.js';

export const NAME = 'NodeResourcesBalancedAllocation';

const requestsKey = stateKey<number[]>('PreScore' + NAME);

/**
 * Prefers nodes whose requested fractions of cpu and memory (with the pod) are close to each other.
 * It uses actual requests, not the 100m / 200Mi stand-ins, and skips best-effort pods, which would
 * otherwise all pile onto one node (kubernetes#129138).
 */
export class NodeResourcesBalancedAllocation implements PreScorePlugin, ScorePlugin {
  readonly name = NAME;

  constructor(private readonly resources: readonly ResourceSpec[]) {}

  preScore(state: CycleState, pod: Pod): MaybeStatus {
    const reqs = podScoringRequests(pod, this.resources, true);
    if (reqs.every((r) => r === 0)) return Status.skip();
    state.write(requestsKey, reqs);
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const podReqs = state.read(requestsKey) ?? podScoringRequests(pod, this.resources, true);
    const { requested, allocatable } = allocationVectors(nodeInfo, this.resources, podReqs, true);
    return balancedAllocationScore(requested, allocatable);
  }
}

export const create: PluginFactory = (args) => new NodeResourcesBalancedAllocation(parseBalancedArgs(args));
