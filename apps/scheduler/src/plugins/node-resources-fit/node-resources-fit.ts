import { stateKey, type CycleState } from '../../framework/cycle-state.js';
import type {
  FilterPlugin,
  PluginFactory,
  PreFilterPlugin,
  PreScorePlugin,
  ScorePlugin,
} from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { podRequests, type Resource } from '../../framework/resource.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { parseFitArgs, type FitArgs } from './args.js';
import {
  allocationVectors,
  leastAllocatedScore,
  mostAllocatedScore,
  podScoringRequests,
} from './resource-allocation.js';

export const NAME = 'NodeResourcesFit';

const requestsKey = stateKey<Resource>('PreFilter' + NAME);
const scoringKey = stateKey<number[]>('PreScore' + NAME);

function ignored(name: string, args: Pick<FitArgs, 'ignoredResources' | 'ignoredResourceGroups'>): boolean {
  if (args.ignoredResources.has(name)) return true;
  const slash = name.indexOf('/');
  return slash > 0 && args.ignoredResourceGroups.has(name.slice(0, slash));
}

const NO_IGNORED = { ignoredResources: new Set<string>(), ignoredResourceGroups: new Set<string>() };

/**
 * kube's fitsRequest: every reason the pod does not fit, in kube's order (pods, cpu, memory,
 * ephemeral-storage, then extended resources). Requests of 0 never fail; the pod count always counts.
 */
export function insufficientResources(
  req: Resource,
  nodeInfo: NodeInfo,
  ignore: Pick<FitArgs, 'ignoredResources' | 'ignoredResourceGroups'> = NO_IGNORED,
): string[] {
  const out: string[] = [];
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  if (nodeInfo.pods.size + 1 > alloc.pods) out.push('Too many pods');
  if (req.milliCPU > 0 && req.milliCPU > alloc.milliCPU - used.milliCPU) out.push('Insufficient cpu');
  if (req.memory > 0 && req.memory > alloc.memory - used.memory) out.push('Insufficient memory');
  if (req.ephemeralStorage > 0 && req.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage) {
    out.push('Insufficient ephemeral-storage');
  }
  for (const [name, q] of req.scalar) {
    if (q === 0 || ignored(name, ignore)) continue;
    if (q > (alloc.scalar.get(name) ?? 0) - (used.scalar.get(name) ?? 0)) out.push(`Insufficient ${name}`);
  }
  return out;
}

/**
 * Filter: the pod's requests must fit in what the node's allocatable leaves after the pods already
 * there (assumed ones included). Score: the configured strategy, LeastAllocated by default.
 */
export class NodeResourcesFit implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;
  private readonly scorer: typeof leastAllocatedScore;

  constructor(private readonly args: FitArgs) {
    this.scorer = args.strategy === 'MostAllocated' ? mostAllocatedScore : leastAllocatedScore;
  }

  preFilter(state: CycleState, pod: Pod): MaybeStatus {
    state.write(requestsKey, podRequests(pod));
    return undefined;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const req = state.read(requestsKey) ?? podRequests(pod);
    const reasons = insufficientResources(req, nodeInfo, this.args);
    return reasons.length === 0 ? undefined : this.rejection(reasons);
  }

  /**
   * One shared (immutable) status per list of reasons: a pod that fits nowhere is rejected by
   * every node of the cluster, nearly always for the same reasons. At most 64 lists are kept.
   */
  private readonly rejections = new Map<string, Status>();

  private rejection(reasons: string[]): Status {
    const key = reasons.join('\n');
    let s = this.rejections.get(key);
    if (!s) {
      s = Status.unschedulable(...reasons);
      if (this.rejections.size >= 64) this.rejections.clear();
      this.rejections.set(key, s);
    }
    return s;
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): MaybeStatus {
    if (nodes.length > 0) state.write(scoringKey, podScoringRequests(pod, this.args.resources, false));
    return undefined;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const podReqs = state.read(scoringKey) ?? podScoringRequests(pod, this.args.resources, false);
    const { requested, allocatable } = allocationVectors(nodeInfo, this.args.resources, podReqs, false);
    return this.scorer(this.args.resources, requested, allocatable);
  }
}

export const create: PluginFactory = (args) => new NodeResourcesFit(parseFitArgs(args));
