import { canonicalValue } from './quantity.js';
import type { Container, Node, Pod, ResourceList } from './types.js';

/**
 * kube's framework.Resource: cpu in millicores, memory and ephemeral storage in bytes, `pods` as a
 * count (the pods a node allows, or the pods it holds), and every other resource (extended
 * resources, hugepages) in `scalar`, in whole units.
 */
export interface Resource {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  pods: number;
  readonly scalar: Map<string, number>;
}

export const CPU = 'cpu';
export const MEMORY = 'memory';
export const EPHEMERAL_STORAGE = 'ephemeral-storage';
export const PODS = 'pods';

/** What a container without a cpu / memory request counts as when scoring (kube's schedutil). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

export function emptyResource(): Resource {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, pods: 0, scalar: new Map() };
}

/** Adds (sign 1) or subtracts (sign -1) `r` into `into`; scalars that reach 0 are dropped. */
export function addResource(into: Resource, r: Resource, sign: 1 | -1 = 1): void {
  into.milliCPU += sign * r.milliCPU;
  into.memory += sign * r.memory;
  into.ephemeralStorage += sign * r.ephemeralStorage;
  into.pods += sign * r.pods;
  for (const [name, v] of r.scalar) {
    const next = (into.scalar.get(name) ?? 0) + sign * v;
    if (next === 0) into.scalar.delete(name);
    else into.scalar.set(name, next);
  }
}

/** Canonical values of a resource list; malformed quantities are left out (the apiserver validates them). */
type Amounts = Map<string, number>;

function amounts(list: ResourceList | null | undefined): Amounts {
  const out: Amounts = new Map();
  if (!list) return out;
  for (const [name, q] of Object.entries(list)) {
    const v = canonicalValue(name, q);
    if (v !== undefined) out.set(name, v);
  }
  return out;
}

function add(into: Amounts, other: Amounts): void {
  for (const [k, v] of other) into.set(k, (into.get(k) ?? 0) + v);
}

function max(into: Amounts, other: Amounts): void {
  for (const [k, v] of other) into.set(k, Math.max(into.get(k) ?? 0, v));
}

/**
 * A container's requests. Like the apiserver's defaulting, a resource with a limit and no request
 * requests its limit (harmless when the apiserver already defaulted it). With `nonMissing`, the
 * resources a container leaves out get those amounts (kube's NonMissingContainerRequests).
 */
function containerRequests(c: Container, nonMissing?: Amounts): Amounts {
  const r = amounts({ ...c.resources?.limits, ...c.resources?.requests });
  if (nonMissing) for (const [k, v] of nonMissing) if (!r.has(k)) r.set(k, v);
  return r;
}

/**
 * kube's resourcehelper.PodRequests: the containers' sum; sidecars (init containers with
 * restartPolicy Always) run alongside them, so they add; a plain init container runs alone, next to
 * the sidecars started before it, so the pod needs the maximum of those; plus the pod overhead.
 */
function podRequestAmounts(pod: Pod, nonMissing?: Amounts): Amounts {
  const reqs: Amounts = new Map();
  for (const c of pod.spec.containers ?? []) add(reqs, containerRequests(c, nonMissing));
  const sidecars: Amounts = new Map();
  const initMax: Amounts = new Map();
  for (const c of pod.spec.initContainers ?? []) {
    const r = containerRequests(c, nonMissing);
    if (c.restartPolicy === 'Always') {
      add(reqs, r);
      add(sidecars, r);
      max(initMax, sidecars);
    } else {
      add(r, sidecars);
      max(initMax, r);
    }
  }
  max(reqs, initMax);
  add(reqs, amounts(pod.spec.overhead));
  return reqs;
}

function toResource(a: Amounts): Resource {
  const r = emptyResource();
  for (const [name, v] of a) {
    if (name === CPU) r.milliCPU = v;
    else if (name === MEMORY) r.memory = v;
    else if (name === EPHEMERAL_STORAGE) r.ephemeralStorage = v;
    else if (name === PODS) r.pods = v;
    else if (v !== 0) r.scalar.set(name, v);
  }
  return r;
}

/** What a pod requests, for fitting: missing requests count as 0. `pods` is 0 here. */
export function podRequests(pod: Pod): Resource {
  const r = toResource(podRequestAmounts(pod));
  r.pods = 0;
  return r;
}

const NON_MISSING: Amounts = new Map([
  [CPU, DEFAULT_MILLI_CPU_REQUEST],
  [MEMORY, DEFAULT_MEMORY_REQUEST],
]);

/** cpu and memory for scoring: a container without a request counts as 100m / 200Mi. */
export function podNonZeroRequests(pod: Pod): { milliCPU: number; memory: number } {
  const a = podRequestAmounts(pod, NON_MISSING);
  return { milliCPU: a.get(CPU) ?? 0, memory: a.get(MEMORY) ?? 0 };
}

/** A node's allocatable resources, `pods` being the number of pods it allows. */
export function nodeAllocatable(node: Node): Resource {
  return toResource(amounts(node.status?.allocatable));
}
