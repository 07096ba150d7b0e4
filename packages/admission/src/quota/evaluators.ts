/**
 * Quota evaluators by group and resource (pkg/quota/v1/evaluator/core and generic): pods have
 * their own; every other namespaced resource is counted as `count/<resource>[.<group>]`, plus the
 * legacy plain name for the core kinds that had one (configmaps, secrets, ...). Core events are
 * never counted (the reference's ignored resources).
 */
import type { StoredObject } from '@keel/resource';
import { asPod } from './pod-shape.js';
import { podConstraints, podMatchesScope, podMatchingResources, podUsage } from './pod-usage.js';
import { addLists, mask, type ResourceList } from './resource-lists.js';
import { scopeSelectorsOf, type QuotaLike, type ScopeRequirement } from './scopes.js';

export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

export interface QuotaEvaluator {
  /** The quota names (of `names`) this kind is charged to. */
  matchingResources(names: readonly string[]): string[];
  /** What one object uses, at `nowMs`. */
  usage(obj: StoredObject, nowMs: number): ResourceList;
  /** Whether the object falls under one scope requirement. */
  matchesScope(scope: ScopeRequirement, obj: StoredObject): boolean;
  /** Why the object cannot be charged to a quota on `required`, or undefined. */
  constraints(required: readonly string[], obj: StoredObject): string | undefined;
}

const legacyCounted = new Set([
  'configmaps',
  'secrets',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'persistentvolumeclaims',
]);

/** The object count quota name of a group and resource. */
export const objectCountName = (gr: GroupResource): string =>
  gr.group === '' ? `count/${gr.resource}` : `count/${gr.resource}.${gr.group}`;

/** Never charged to quota (DefaultIgnoredResources). */
export const isIgnoredResource = (gr: GroupResource): boolean => gr.group === '' && gr.resource === 'events';

const podEvaluator: QuotaEvaluator = {
  matchingResources: podMatchingResources,
  usage: (obj, nowMs) => podUsage(asPod(obj), nowMs),
  matchesScope: (scope, obj) => podMatchesScope(scope, asPod(obj)),
  constraints: (required, obj) => podConstraints(required, asPod(obj)),
};

function objectCountEvaluator(gr: GroupResource): QuotaEvaluator {
  const names = [
    objectCountName(gr),
    ...(gr.group === '' && legacyCounted.has(gr.resource) ? [gr.resource] : []),
  ];
  const usage: ResourceList = Object.fromEntries(names.map((n) => [n, '1']));
  return {
    matchingResources: (hard) => hard.filter((n) => names.includes(n)),
    usage: () => ({ ...usage }),
    // Scoped quotas only ever apply to pods.
    matchesScope: () => false,
    constraints: () => undefined,
  };
}

export function evaluatorFor(gr: GroupResource): QuotaEvaluator {
  return gr.group === '' && gr.resource === 'pods' ? podEvaluator : objectCountEvaluator(gr);
}

/** quota.Matches: the quota limits something this kind uses, and every scope takes the object. */
export function quotaMatches(q: QuotaLike, evaluator: QuotaEvaluator, obj: StoredObject): boolean {
  const hard = Object.keys(q.status?.hard ?? {});
  if (evaluator.matchingResources(hard).length === 0) return false;
  return scopeSelectorsOf(q).every((s) => evaluator.matchesScope(s, obj));
}

/**
 * The usage a quota should record from `objects` of one kind (the quota controller's
 * recalculation): the sum over the objects the quota's scopes take, masked to its hard names.
 */
export function usageOf(
  q: QuotaLike,
  gr: GroupResource,
  objects: readonly StoredObject[],
  nowMs: number,
): ResourceList {
  const evaluator = evaluatorFor(gr);
  const names = evaluator.matchingResources(Object.keys(q.spec?.hard ?? {}));
  if (names.length === 0) return {};
  const scopes = scopeSelectorsOf(q);
  const sums: ResourceList[] = [];
  for (const obj of objects) {
    if (!scopes.every((s) => evaluator.matchesScope(s, obj))) continue;
    sums.push(mask(evaluator.usage(obj, nowMs), names));
  }
  return sumLists(names, sums);
}

/** Every name starts at zero, as the controller reports resources nothing uses yet. */
function sumLists(names: readonly string[], lists: readonly ResourceList[]): ResourceList {
  let out: ResourceList = Object.fromEntries(names.map((n) => [n, '0']));
  for (const l of lists) out = addLists(out, l);
  return out;
}
