/**
 * The pod evaluator (pkg/quota/v1/evaluator/core/pods.go): what a pod consumes (its object
 * count always; pods, cpu, memory, ephemeral storage, huge pages and extended resources while it
 * is not terminal), which quota names it can be charged to, and the constraint that a quota on
 * cpu or memory needs every container to state them.
 */
import { compareQuantity, parseQuantity } from '@keel/resource';
import { containersOf, initContainersOf, type ContainerLike, type PodLike } from './pod-shape.js';
import { addLists, has, maxLists, namesOf, type ResourceList } from './resource-lists.js';
import type { ScopeRequirement } from './scopes.js';

const podResources = new Set([
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
]);
const podResourcePrefixes = ['hugepages-', 'requests.hugepages-'];
const computeNames = ['cpu', 'memory', 'ephemeral-storage'];
/** Quota names that make every container state its requests or limits. */
const validationSet = new Set([
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
]);

const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');

/** helper.IsExtendedResourceName, enough for quota names: qualified and not native. */
const isExtended = (name: string): boolean => !isNative(name) && !name.startsWith('requests.');

/** The pod evaluator's MatchingResources. */
export function podMatchingResources(names: readonly string[]): string[] {
  return names.filter(
    (n) =>
      podResources.has(n) ||
      podResourcePrefixes.some((p) => n.startsWith(p)) ||
      (n.startsWith('requests.') && isExtended(n.slice('requests.'.length))),
  );
}

/** podComputeUsageHelper. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = { pods: '1' };
  for (const name of computeNames) {
    if (has(requests, name)) {
      out[name] = requests[name] ?? '0';
      out[`requests.${name}`] = requests[name] ?? '0';
    }
    if (has(limits, name)) out[`limits.${name}`] = limits[name] ?? '0';
  }
  for (const [name, q] of Object.entries(requests)) {
    if (name.startsWith('hugepages-')) {
      out[name] = q;
      out[`requests.${name}`] = q;
    }
    if (isExtended(name)) out[`requests.${name}`] = q;
  }
  return out;
}

/** QuotaV1Pod: terminal pods, and pods past their deletion grace period, use no compute. */
export function podCountsForQuota(pod: PodLike, nowMs: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  if (deletionTimestamp !== undefined && deletionGracePeriodSeconds !== undefined) {
    if (nowMs > Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000) return false;
  }
  return true;
}

/** PodUsageFunc. */
export function podUsage(pod: PodLike, nowMs: number): ResourceList {
  const result: ResourceList = { 'count/pods': '1' };
  if (!podCountsForQuota(pod, nowMs)) return result;
  let requests: ResourceList = {};
  let limits: ResourceList = {};
  for (const c of containersOf(pod)) {
    requests = addLists(requests, c.resources?.requests ?? {});
    limits = addLists(limits, c.resources?.limits ?? {});
  }
  for (const c of initContainersOf(pod)) {
    requests = maxLists(requests, c.resources?.requests ?? {});
    limits = maxLists(limits, c.resources?.limits ?? {});
  }
  if (pod.spec?.overhead) {
    requests = addLists(requests, pod.spec.overhead);
    limits = addLists(limits, pod.spec.overhead);
  }
  return addLists(result, computeUsage(requests, limits));
}

/** The pod evaluator's Constraints: `must specify <name> for: <containers>; ...`, or undefined. */
export function podConstraints(required: readonly string[], pod: PodLike): string | undefined {
  const wanted = required.filter((r) => validationSet.has(r));
  if (wanted.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  const visit = (c: ContainerLike) => {
    const have = computeUsage(c.resources?.requests ?? {}, c.resources?.limits ?? {});
    for (const name of wanted) {
      if (has(have, name)) continue;
      const names = missing.get(name) ?? new Set<string>();
      names.add(c.name ?? '');
      missing.set(name, names);
    }
  };
  containersOf(pod).forEach(visit);
  initContainersOf(pod).forEach(visit);
  if (missing.size === 0) return undefined;
  return [...missing.keys()]
    .sort()
    .map((name) => `must specify ${name} for: ${[...(missing.get(name) ?? [])].sort().join(',')}`)
    .join('; ');
}

const qosNames = new Set(['cpu', 'memory']);

/** qos.GetPodQOS(pod) == BestEffort: no container asks for or limits cpu or memory. */
function isBestEffort(pod: PodLike): boolean {
  return [...containersOf(pod), ...initContainersOf(pod)].every((c) =>
    [c.resources?.requests, c.resources?.limits].every((list) =>
      namesOf(list).every(
        (k) => !qosNames.has(k) || compareQuantity(parseQuantity(list?.[k] ?? '0'), parseQuantity('0')) === 0,
      ),
    ),
  );
}

function usesCrossNamespaceAffinity(pod: PodLike): boolean {
  const a = pod.spec?.affinity;
  const terms = [a?.podAffinity, a?.podAntiAffinity].flatMap((x) => [
    ...(x?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(x?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => w.podAffinityTerm ?? {}),
  ]);
  return terms.some((t) => (t.namespaces ?? []).length > 0 || t.namespaceSelector !== undefined);
}

/** podMatchesScopeFunc. */
export function podMatchesScope(scope: ScopeRequirement, pod: PodLike): boolean {
  const deadline = pod.spec?.activeDeadlineSeconds;
  const terminating = deadline !== undefined && deadline >= 0;
  switch (scope.scopeName) {
    case 'Terminating':
      return terminating;
    case 'NotTerminating':
      return !terminating;
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const pc = pod.spec?.priorityClassName ?? '';
      const values = scope.values ?? [];
      // The selector is over a label set that always has the key (the class, maybe empty).
      if (scope.operator === 'Exists') return pc !== '';
      if (scope.operator === 'In') return values.includes(pc);
      if (scope.operator === 'NotIn') return !values.includes(pc);
      return false;
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespaceAffinity(pod);
    default:
      return false;
  }
}
