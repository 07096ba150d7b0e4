/**
 * The status conditions the namespace controller keeps on a terminating namespace, with the
 * real controller's types, reasons and messages: each failing condition is True with what
 * failed, every other one False with its "all is well" reason.
 */
import type { NamespaceCondition } from '@keel/coreapi';

export type NamespaceConditionType =
  | 'NamespaceDeletionDiscoveryFailure'
  | 'NamespaceDeletionGroupVersionParsingFailure'
  | 'NamespaceDeletionContentFailure'
  | 'NamespaceContentRemaining'
  | 'NamespaceFinalizersRemaining';

/** In the real controller's order, with the False condition each has when nothing is wrong. */
const OK: readonly [NamespaceConditionType, string, string][] = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  [
    'NamespaceDeletionGroupVersionParsingFailure',
    'ParsedGroupVersions',
    'All legacy kube types successfully parsed',
  ],
  [
    'NamespaceDeletionContentFailure',
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  ['NamespaceFinalizersRemaining', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
];

/** What one pass over a namespace's content found. */
export interface ContentTotals {
  /** `<resource>.<group>` → how many objects are left. */
  readonly remaining: ReadonlyMap<string, number>;
  /** finalizer → how many of the objects left list it. */
  readonly finalizers: ReadonlyMap<string, number>;
  /** Why resources could not be emptied (one message per resource). */
  readonly errors: readonly string[];
}

const sorted = (xs: string[]) => [...xs].sort();

/** The failing conditions `totals` calls for (the others are the OK ones). */
export function failingConditions(totals: ContentTotals): Map<NamespaceConditionType, NamespaceCondition> {
  const out = new Map<NamespaceConditionType, NamespaceCondition>();
  const set = (type: NamespaceConditionType, reason: string, message: string) =>
    out.set(type, { type, status: 'True', reason, message });
  if (totals.errors.length > 0) {
    const errs = sorted([...totals.errors]);
    set(
      'NamespaceDeletionContentFailure',
      'ContentDeletionFailed',
      `Failed to delete all resource types, ${errs.length} remaining: ${errs.join(', ')}`,
    );
  }
  const remaining = [...totals.remaining]
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${r} has ${n} resource instances`);
  if (totals.remaining.size > 0)
    set(
      'NamespaceContentRemaining',
      'SomeResourcesRemain',
      `Some resources are remaining: ${sorted(remaining).join(', ')}`,
    );
  const held = [...totals.finalizers]
    .filter(([, n]) => n > 0)
    .map(([f, n]) => `${f} in ${n} resource instances`);
  if (totals.finalizers.size > 0)
    set(
      'NamespaceFinalizersRemaining',
      'SomeFinalizersRemain',
      `Some content in the namespace has finalizers remaining: ${sorted(held).join(', ')}`,
    );
  return out;
}

/**
 * Brings `conditions` to what `failing` says, in place; returns whether anything changed. A
 * condition's lastTransitionTime moves only when its status flips, as the real controller does.
 */
export function updateConditions(
  conditions: NamespaceCondition[],
  failing: ReadonlyMap<NamespaceConditionType, NamespaceCondition>,
  now: string,
): boolean {
  let changed = false;
  for (const [type, reason, message] of OK) {
    const wanted = failing.get(type) ?? { type, status: 'False', reason, message };
    const old = conditions.find((c) => c.type === type);
    if (!old) {
      conditions.push({ ...wanted, lastTransitionTime: now });
      changed = true;
    } else if (
      old.status !== wanted.status ||
      old.reason !== wanted.reason ||
      old.message !== wanted.message
    ) {
      if (old.status !== wanted.status) old.lastTransitionTime = now;
      old.status = wanted.status;
      old.reason = wanted.reason;
      old.message = wanted.message;
      changed = true;
    }
  }
  return changed;
}
