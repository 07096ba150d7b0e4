/**
 * The quota decision for one request against a namespace's quotas (the reference's checkRequest):
 * which quotas apply, whether the object meets their constraints, whether each has usage
 * recorded for what it limits, whether by-default-limited consumption is covered, and the new
 * usage of every quota the object is charged to; a refusal is the reference's message.
 */
import { parseQuantity, type StoredObject } from '@keel/resource';
import type { QuotaEvaluator } from '../quota/evaluators.js';
import { quotaMatches } from '../quota/evaluators.js';
import {
  addLists,
  byteOrder,
  exceeding,
  has,
  mask,
  namesOf,
  prettyPrint,
  type ResourceList,
} from '../quota/resource-lists.js';
import { formatScopes, scopeSelectorsOf, type QuotaLike, type ScopeRequirement } from '../quota/scopes.js';
import type { LimitedResource } from './resource-quota-config.js';

/** A refusal's text (the plugin wraps it as `<resource> "<name>" is forbidden: <why>`). */
export class QuotaRefusal extends Error {}

export interface Charge {
  readonly quota: QuotaLike;
  readonly used: ResourceList;
}

const sign = (v: string): bigint => parseQuantity(v).nanos;

/** limitedByDefault: consumed names that a limited resource's matchContains picks. */
function limitedByDefault(usage: ResourceList, limited: readonly LimitedResource[]): Set<string> {
  const out = new Set<string>();
  for (const l of limited)
    for (const [k, v] of Object.entries(usage))
      if (sign(v) > 0n && l.matchContains.some((m) => k.includes(m))) out.add(k);
  return out;
}

/** quota.RemoveZeros. */
const withoutZeros = (l: ResourceList): ResourceList =>
  Object.fromEntries(Object.entries(l).filter(([, v]) => sign(v) !== 0n));

/**
 * The charges the object makes, or a QuotaRefusal. `limited` are the configured limited
 * resources of the object's group and resource.
 */
export function checkRequest(
  quotas: readonly QuotaLike[],
  evaluator: QuotaEvaluator,
  obj: StoredObject,
  limited: readonly LimitedResource[],
  nowMs: number,
): Charge[] {
  const usage = evaluator.usage(obj, nowMs);
  const limitedNames = limited.length > 0 ? limitedByDefault(usage, limited) : new Set<string>();
  const limitedScopes = limited.flatMap((l) => l.matchScopes).filter((s) => evaluator.matchesScope(s, obj));
  const restricted = new Set<string>();
  const restrictedScopes: ScopeRequirement[] = [];
  const interesting: QuotaLike[] = [];
  for (const q of quotas) {
    if (!quotaMatches(q, evaluator, obj)) continue;
    const names = evaluator.matchingResources(namesOf(q.status?.hard));
    const why = evaluator.constraints(names, obj);
    if (why !== undefined) throw new QuotaRefusal(`failed quota: ${q.metadata.name ?? ''}: ${why}`);
    if (!names.every((n) => has(q.status?.used, n)))
      throw new QuotaRefusal(
        `status unknown for quota: ${q.metadata.name ?? ''}, resources: ${[...names].sort(byteOrder).join(',')}`,
      );
    for (const n of names) restricted.add(n);
    restrictedScopes.push(...scopeSelectorsOf(q));
    interesting.push(q);
  }
  const negative = namesOf(usage).filter((k) => sign(usage[k] ?? '0') < 0n);
  if (negative.length > 0)
    throw new QuotaRefusal(`quota usage is negative for resource(s): ${negative.join(',')}`);
  const delta = withoutZeros(usage);
  if (Object.keys(delta).length === 0) return [];
  const uncovered = [...limitedNames].filter((n) => !restricted.has(n)).sort(byteOrder);
  if (uncovered.length > 0) throw new QuotaRefusal(`insufficient quota to consume: ${uncovered.join(',')}`);
  const uncoveredScopes = limitedScopes.filter(
    (s) => !restrictedScopes.some((r) => r.scopeName === s.scopeName),
  );
  if (uncoveredScopes.length > 0)
    throw new QuotaRefusal(`insufficient quota to match these scopes: ${formatScopes(uncoveredScopes)}`);
  return interesting.map((q) => {
    const hard = q.status?.hard ?? {};
    const requested = mask(delta, Object.keys(hard));
    const used = addLists(q.status?.used ?? {}, requested);
    const over = exceeding(mask(used, Object.keys(requested)), hard);
    if (over.length > 0) {
      throw new QuotaRefusal(
        `exceeded quota: ${q.metadata.name ?? ''}, requested: ${prettyPrint(mask(requested, over))}, used: ${prettyPrint(mask(q.status?.used ?? {}, over))}, limited: ${prettyPrint(mask(hard, over))}`,
      );
    }
    return { quota: q, used };
  });
}
