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

/** The reasons of the fixed resources, as bits of `fixedShortfall`, in kube's order. */
const FIXED_REASONS = [
  'Too many pods',
  'Insufficient cpu',
  'Insufficient memory',
  'Insufficient ephemeral-storage',
] as const;

/**
 * The fixed resources (pods, cpu, memory, ephemeral-storage) the node lacks for `req`, one bit each
 * in FIXED_REASONS' order: a number, so filtering a node that does not fit allocates nothing.
 */
function fixedShortfall(req: Resource, nodeInfo: NodeInfo): number {
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  let bits = 0;
  if (nodeInfo.pods.size + 1 > alloc.pods) bits |= 1;
  if (req.milliCPU > 0 && req.milliCPU > alloc.milliCPU - used.milliCPU) bits |= 2;
  if (req.memory > 0 && req.memory > alloc.memory - used.memory) bits |= 4;
  if (req.ephemeralStorage > 0 && req.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage) {
    bits |= 8;
  }
  return bits;
}

/** The extended resources the node lacks for `req`, in `req`'s order. */
function scalarShortfall(
  req: Resource,
  nodeInfo: NodeInfo,
  ignore: Pick<FitArgs, 'ignoredResources' | 'ignoredResourceGroups'>,
  out: string[],
): void {
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  for (const [name, q] of req.scalar) {
    if (q === 0 || ignored(name, ignore)) continue;
    if (q > (alloc.scalar.get(name) ?? 0) - (used.scalar.get(name) ?? 0)) out.push(`Insufficient ${name}`);
  }
}

/**
 * kube's fitsRequest: every reason the pod does not fit, in kube's order (pods, cpu, memory,
 * ephemeral-storage, then extended resources). Requests of 0 never fail; the pod count always counts.
 */
export function insufficientResources(
  req: Resource,
  nodeInfo: NodeInfo,
  ignore: Pick<FitArgs, 'ignoredResources' | 'ignoredResourceGroups'> = NO_IGNORED,
): string[] {
  const bits = fixedShortfall(req, nodeInfo);
  const out = FIXED_REASONS.filter((_, i) => (bits & (1 << i)) !== 0);
  scalarShortfall(req, nodeInfo, ignore, out);
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
    const bits = fixedShortfall(req, nodeInfo);
    if (req.scalar.size === 0) return bits === 0 ? undefined : this.fixedRejection(bits);
    const reasons = insufficientResources(req, nodeInfo, this.args);
    return reasons.length === 0 ? undefined : this.rejection(reasons);
  }

  /**
   * One shared (immutable) status per list of reasons: a pod that fits nowhere is rejected by
   * every node of the cluster, nearly always for the same reasons. Those of the fixed resources
   * alone are kept by their bits; other lists by their text, at most 64.
   */
  private readonly fixedRejections: (Status | undefined)[] = [];
  private readonly rejections = new Map<string, Status>();

  private fixedRejection(bits: number): Status {
    let s = this.fixedRejections[bits];
    if (!s) {
      s = Status.unschedulable(...FIXED_REASONS.filter((_, i) => (bits & (1 << i)) !== 0));
      this.fixedRejections[bits] = s;
    }
    return s;
  }

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
