/**
 * What start-up reconciliation does to one default object, as the reference's
 * pkg/registry/rbac/reconciliation in its union mode: compute the object to write from the stored
 * one and the default, never removing what someone added. An object annotated
 * `rbac.authorization.kubernetes.io/autoupdate: "false"` is left exactly as it is.
 */
import type {
  AggregationRule,
  ClusterRole,
  LabelSelectorLike,
  RoleBinding,
  RoleRef,
  Subject,
} from '../types.js';
import { uncoveredRules } from './covers.js';
import { AUTOUPDATE_ANNOTATION } from './metadata.js';

export type Reconciled<T> =
  /** Nothing to write: up to date, or protected by autoupdate "false". */
  | { readonly op: 'none' }
  | { readonly op: 'create'; readonly object: T }
  | { readonly op: 'update'; readonly object: T }
  /** A binding whose roleRef differs (roleRef cannot change): delete it, then create `object`. */
  | { readonly op: 'recreate'; readonly object: T };

type Metadata = { labels?: Record<string, string>; annotations?: Record<string, string> };

function isProtected(obj: { metadata: Metadata }): boolean {
  return obj.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false';
}

/** The stored values win; keys only the default has are added. */
function mergeMaps(
  expected: Record<string, string> | undefined,
  existing: Record<string, string> | undefined,
): { merged: Record<string, string> | undefined; changed: boolean } {
  if (!expected) return { merged: existing, changed: false };
  const changed = Object.keys(expected).some((k) => !Object.hasOwn(existing ?? {}, k));
  return { merged: changed ? { ...expected, ...existing } : existing, changed };
}

/** Labels and annotations of the default merged into the stored object's metadata. */
function reconcileMetadata<T extends { metadata: Metadata }>(
  existing: T,
  expected: T,
): { object: T; changed: boolean } {
  const labels = mergeMaps(expected.metadata.labels, existing.metadata.labels);
  const annotations = mergeMaps(expected.metadata.annotations, existing.metadata.annotations);
  if (!labels.changed && !annotations.changed) return { object: existing, changed: false };
  return {
    object: {
      ...existing,
      metadata: { ...existing.metadata, labels: labels.merged, annotations: annotations.merged },
    },
    changed: true,
  };
}

/** JSON with sorted keys, so equal selectors compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

function missingSelectors(
  existing: AggregationRule | undefined,
  expected: AggregationRule,
): LabelSelectorLike[] {
  const have = new Set((existing?.clusterRoleSelectors ?? []).map(canonical));
  return (expected.clusterRoleSelectors ?? []).filter((s) => !have.has(canonical(s)));
}

/**
 * A Role or ClusterRole: missing rules are appended (as single-verb pieces, like the reference),
 * missing labels and annotations added, and an aggregated default keeps its selectors (the rules
 * of an aggregated role belong to the aggregation controller and are not compared).
 */
export function reconcileRole<T extends ClusterRole>(existing: T | undefined, expected: T): Reconciled<T> {
  if (!existing) return { op: 'create', object: expected };
  if (isProtected(existing)) return { op: 'none' };
  let { object, changed } = reconcileMetadata(existing, expected);
  const missing = uncoveredRules(existing.rules ?? [], expected.rules ?? []);
  if (missing.length > 0) {
    object = { ...object, rules: [...(existing.rules ?? []), ...missing] };
    changed = true;
  }
  if (!expected.aggregationRule && existing.aggregationRule) {
    const { aggregationRule: _dropped, ...rest } = object;
    object = rest as T;
    changed = true;
  } else if (expected.aggregationRule) {
    const selectors = missingSelectors(existing.aggregationRule, expected.aggregationRule);
    if (selectors.length > 0) {
      const current = existing.aggregationRule?.clusterRoleSelectors ?? [];
      object = { ...object, aggregationRule: { clusterRoleSelectors: [...current, ...selectors] } };
      changed = true;
    }
  }
  return changed ? { op: 'update', object } : { op: 'none' };
}

function sameRoleRef(a: RoleRef, b: RoleRef): boolean {
  return a.apiGroup === b.apiGroup && a.kind === b.kind && a.name === b.name;
}

function subjectKey(s: Subject): string {
  return JSON.stringify([s.kind, s.apiGroup ?? '', s.name, s.namespace ?? '']);
}

/**
 * A RoleBinding or ClusterRoleBinding: missing subjects are appended and missing labels and
 * annotations added; a binding to another role is replaced by the default (the roleRef of a
 * binding cannot be changed in place).
 */
export function reconcileBinding<T extends RoleBinding>(existing: T | undefined, expected: T): Reconciled<T> {
  if (!existing) return { op: 'create', object: expected };
  if (isProtected(existing)) return { op: 'none' };
  if (!sameRoleRef(existing.roleRef, expected.roleRef)) return { op: 'recreate', object: expected };
  let { object, changed } = reconcileMetadata(existing, expected);
  const have = new Set((existing.subjects ?? []).map(subjectKey));
  const missing = (expected.subjects ?? []).filter((s) => !have.has(subjectKey(s)));
  if (missing.length > 0) {
    object = { ...object, subjects: [...(existing.subjects ?? []), ...missing] };
    changed = true;
  }
  return changed ? { op: 'update', object } : { op: 'none' };
}
