import { MAX_NODE_SCORE } from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import {
  CPU,
  EPHEMERAL_STORAGE,
  MEMORY,
  PODS,
  podNonZeroRequests,
  podRequests,
  type Resource,
} from '../../framework/resource.js';
import type { Pod } from '../../framework/types.js';

/** A resource a scoring strategy looks at, with its weight in the average. */
export interface ResourceSpec {
  readonly name: string;
  readonly weight: number;
}

export const DEFAULT_RESOURCES: readonly ResourceSpec[] = [
  { name: CPU, weight: 1 },
  { name: MEMORY, weight: 1 },
];

function isScalar(name: string): boolean {
  return name !== CPU && name !== MEMORY && name !== EPHEMERAL_STORAGE && name !== PODS;
}

function amountOf(r: Resource, name: string): number {
  if (name === CPU) return r.milliCPU;
  if (name === MEMORY) return r.memory;
  if (name === EPHEMERAL_STORAGE) return r.ephemeralStorage;
  if (name === PODS) return r.pods;
  return r.scalar.get(name) ?? 0;
}

/**
 * The pod's request per resource for scoring. Unless `useRequested`, cpu and memory count a
 * container without a request as 100m / 200Mi, so best-effort pods still spread out.
 */
export function podScoringRequests(
  pod: Pod,
  resources: readonly ResourceSpec[],
  useRequested: boolean,
): number[] {
  const req = podRequests(pod);
  const nonZero = useRequested ? undefined : podNonZeroRequests(pod);
  return resources.map(({ name }) => {
    if (nonZero && name === CPU) return nonZero.milliCPU;
    if (nonZero && name === MEMORY) return nonZero.memory;
    return amountOf(req, name);
  });
}

/**
 * kube's resourceAllocationScorer: per resource, the node's allocatable and what would be requested
 * with the pod on it. A zero allocatable (or an extended resource the pod does not ask for) leaves
 * the resource out of the score.
 */
export function allocationVectors(
  nodeInfo: NodeInfo,
  resources: readonly ResourceSpec[],
  podReqs: readonly number[],
  useRequested: boolean,
): { requested: number[]; allocatable: number[] } {
  const requested = new Array<number>(resources.length).fill(0);
  const allocatable = new Array<number>(resources.length).fill(0);
  resources.forEach(({ name }, i) => {
    const podReq = podReqs[i] ?? 0;
    if (podReq === 0 && isScalar(name)) return;
    const alloc = amountOf(nodeInfo.allocatable, name);
    if (alloc === 0) return;
    let used: number;
    if (!useRequested && name === CPU) used = nodeInfo.nonZeroRequested.milliCPU;
    else if (!useRequested && name === MEMORY) used = nodeInfo.nonZeroRequested.memory;
    else used = amountOf(nodeInfo.requested, name);
    allocatable[i] = alloc;
    requested[i] = used + podReq;
  });
  return { requested, allocatable };
}

type PerResource = (requested: number, capacity: number) => number;

const leastRequested: PerResource = (requested, capacity) =>
  capacity === 0 || requested > capacity
    ? 0
    : Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);

const mostRequested: PerResource = (requested, capacity) =>
  capacity === 0 ? 0 : Math.trunc((Math.min(requested, capacity) * MAX_NODE_SCORE) / capacity);

function weightedScorer(per: PerResource) {
  return (
    resources: readonly ResourceSpec[],
    requested: readonly number[],
    allocatable: readonly number[],
  ): number => {
    let score = 0;
    let weights = 0;
    resources.forEach(({ weight }, i) => {
      const alloc = allocatable[i] ?? 0;
      if (alloc === 0) return;
      score += per(requested[i] ?? 0, alloc) * weight;
      weights += weight;
    });
    return weights === 0 ? 0 : Math.trunc(score / weights);
  };
}

/** LeastAllocated: more free capacity (after placing the pod) scores higher. */
export const leastAllocatedScore = weightedScorer(leastRequested);
/** MostAllocated: fuller nodes score higher (bin packing). */
export const mostAllocatedScore = weightedScorer(mostRequested);

/**
 * BalancedAllocation: 100 × (1 − the standard deviation of the requested fractions), so nodes whose
 * cpu and memory fill up evenly score higher.
 */
export function balancedAllocationScore(
  requested: readonly number[],
  allocatable: readonly number[],
): number {
  const fractions: number[] = [];
  allocatable.forEach((alloc, i) => {
    if (alloc === 0) return;
    fractions.push(Math.min((requested[i] ?? 0) / alloc, 1));
  });
  let std = 0;
  if (fractions.length === 2) {
    std = Math.abs(((fractions[0] as number) - (fractions[1] as number)) / 2);
  } else if (fractions.length > 2) {
    const mean = fractions.reduce((a, b) => a + b, 0) / fractions.length;
    std = Math.sqrt(fractions.reduce((a, f) => a + (f - mean) * (f - mean), 0) / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}
