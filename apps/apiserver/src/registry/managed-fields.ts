import { StatusError, type JsonObject } from '@keel/apimachinery';
import {
  asSet,
  changedPart,
  commonLeaves,
  fieldSet,
  intersect,
  intersectWire,
  isEmpty,
  leafPaths,
  subtract,
  union,
  type Wire,
} from './field-set.js';
import type { InternalObject, ManagedFieldsEntry } from './resource-view.js';

export { fieldSet, changedPart } from './field-set.js';

/** An object's wire form in one API version, before (undefined on create) and after a write. */
export interface VersionedWire {
  readonly before: Wire | undefined;
  readonly after: Wire;
}

export interface ManagerWrite {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  /** The request version, e.g. `events.k8s.io/v1`. */
  readonly apiVersion: string;
  readonly now: Date;
  /** What the request set, as far as the server kept it: owned on create and by an Apply. */
  readonly sent: Wire;
  /** An Apply takes fields other managers own instead of failing with a conflict. */
  readonly force?: boolean;
  /**
   * The object in the given API version: each entry's fields are compared in the version it was
   * recorded in (managers of core v1 and events.k8s.io/v1 Events name the same field differently).
   */
  wireIn(apiVersion: string): VersionedWire;
}

/**
 * The field manager's identity of an entry (fieldmanager BuildManagerIdentifier): manager,
 * operation and subresource, plus the apiVersion for updaters, so one updater writing through
 * two API versions keeps two entries while an applier keeps one.
 */
export function managerKey(e: ManagedFieldsEntry): string {
  return JSON.stringify({
    ...(e.manager ? { manager: e.manager } : {}),
    ...(e.operation ? { operation: e.operation } : {}),
    ...(e.operation !== 'Apply' && e.apiVersion ? { apiVersion: e.apiVersion } : {}),
    ...(e.subresource ? { subresource: e.subresource } : {}),
  });
}

/** How a conflict names a manager (conflict.go printManager): updaters with their version. */
function printManager(e: ManagedFieldsEntry): string {
  const name = JSON.stringify(e.manager ?? '');
  const sub = e.subresource ? ` with subresource ${JSON.stringify(e.subresource)}` : '';
  return e.operation === 'Update' ? `${name}${sub} using ${e.apiVersion ?? ''}` : `${name}${sub}`;
}

interface Conflict {
  readonly entry: ManagedFieldsEntry;
  readonly paths: readonly string[];
}

/**
 * The 409 of an apply that would change fields other managers own (conflict.go NewConflictError):
 * one FieldManagerConflict cause per field; the message lists them by manager, managers sorted.
 */
export function applyConflictError(conflicts: readonly Conflict[]): StatusError {
  const sorted = [...conflicts].sort((a, b) => (managerKey(a.entry) < managerKey(b.entry) ? -1 : 1));
  const flat = sorted.flatMap((c) => c.paths.map((p) => ({ manager: printManager(c.entry), path: p })));
  const [only] = flat;
  const message =
    flat.length === 1 && only
      ? `Apply failed with 1 conflict: conflict with ${only.manager}: ${only.path}`
      : `Apply failed with ${flat.length} conflicts: ${sorted
          .map((c) =>
            [`conflicts with ${printManager(c.entry)}:`, ...c.paths.map((p) => `- ${p}`)].join('\n'),
          )
          .join('\n')}`;
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Conflict',
    details: {
      causes: flat.map((c) => ({
        reason: 'FieldManagerConflict',
        message: `conflict with ${c.manager}`,
        field: c.path,
      })),
    },
    code: 409,
  });
}

/**
 * What one API version sees of the write: the object after it, the fields it added or changed,
 * and (only when another manager's entry needs it) the fields present after it.
 */
interface VersionView {
  readonly after: Wire;
  present: JsonObject | undefined;
  readonly changed: JsonObject;
  readonly created: boolean;
}

function presentIn(v: VersionView): JsonObject {
  return (v.present ??= fieldSet(v.after));
}

/**
 * Which entries a write starts from (fieldmanager Update): an update that sends managedFields of
 * its own replaces the live ones (kubectl rewrites them when it moves client-side apply to
 * server-side apply); one that sends none keeps them. An apply, which may not send any, and a
 * create, whose fields all go to its manager, start from the live entries.
 */
export function baseEntries(
  obj: InternalObject,
  current: InternalObject | undefined,
  operation: 'Apply' | 'Update',
): readonly ManagedFieldsEntry[] {
  if (!current) return [];
  const live = current.metadata.managedFields ?? [];
  const sent = obj.metadata.managedFields ?? [];
  // What a client read and sent back unchanged is the live list (decoding may have dropped empty members).
  return operation === 'Update' && sent.length > 0 && !sameEntries(sent, live) ? sent : live;
}

/** Entries as JSON without their times and empty members (Go's omitempty). */
function normalized(entries: readonly ManagedFieldsEntry[]): string {
  return JSON.stringify(
    entries.map(({ time: _t, ...e }) =>
      Object.fromEntries(
        Object.entries(e)
          .filter(([, v]) => v !== undefined && v !== '')
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      ),
    ),
  );
}

/** The same entries, times aside: a write that changes nothing else is not written. */
export function sameEntries(a: readonly ManagedFieldsEntry[], b: readonly ManagedFieldsEntry[]): boolean {
  return normalized(a) === normalized(b);
}

/**
 * Records a write in managedFields, as the field manager does. Every write takes the fields it
 * adds or changes from the other managers; an Update makes its manager own those on top of what
 * it owned, an Apply owns exactly its configuration. An Apply that changes a field another
 * manager owns fails with a 409 listing the conflicts, unless forced. Fields the object no
 * longer has are owned by no one, and entries left empty are dropped.
 */
export function recordManager(
  obj: InternalObject,
  entries: readonly ManagedFieldsEntry[],
  w: ManagerWrite,
): void {
  const views = new Map<string, VersionView>();
  const viewOf = (apiVersion: string): VersionView => {
    let v = views.get(apiVersion);
    if (!v) {
      const { before, after } = w.wireIn(apiVersion);
      v = {
        after,
        present: undefined,
        changed: before ? fieldSet(changedPart(before, after)) : {},
        created: before === undefined,
      };
      views.set(apiVersion, v);
    }
    return v;
  };
  const own = viewOf(w.apiVersion);
  // A create starts from no entries: no key to build.
  const selfKey =
    entries.length > 0
      ? managerKey({ manager: w.manager, operation: w.operation, apiVersion: w.apiVersion })
      : '';
  const self = entries.find((e) => managerKey(e) === selfKey);
  const conflicts: Conflict[] = [];
  const others: ManagedFieldsEntry[] = [];
  for (const e of entries) {
    if (e === self) continue;
    const view = viewOf(e.apiVersion || w.apiVersion);
    const set = asSet(e.fieldsV1);
    const clash = commonLeaves(set, view.changed);
    if (!isEmpty(clash)) conflicts.push({ entry: e, paths: leafPaths(clash) });
    const rest = subtract(intersect(set, presentIn(view)), view.changed);
    if (!isEmpty(rest)) others.push({ ...e, fieldsV1: rest });
  }
  if (w.operation === 'Apply' && conflicts.length > 0 && !w.force) throw applyConflictError(conflicts);
  const owned =
    w.operation === 'Apply' || own.created ? fieldSet(w.sent) : union(asSet(self?.fieldsV1), own.changed);
  const entry: ManagedFieldsEntry = {
    // An empty manager is left out, as Go's omitempty leaves it out.
    ...(w.manager !== '' ? { manager: w.manager } : {}),
    operation: w.operation,
    apiVersion: w.apiVersion,
    // toISOString always ends in `.sssZ`: seconds precision, as metav1.Time writes it.
    time: `${w.now.toISOString().slice(0, -5)}Z`,
    fieldsType: 'FieldsV1',
    // Without other entries in this version (a create) the set is restricted by the object
    // itself rather than by a field set built from all of it; `owned` then came from fieldSet.
    fieldsV1:
      own.present !== undefined || self !== undefined
        ? intersect(owned, presentIn(own))
        : intersectWire(owned, own.after),
  };
  const kept = isEmpty(asSet(entry.fieldsV1)) ? others : [...others, entry];
  obj.metadata.managedFields = kept.sort(entryOrder);
}

const seconds = (e: ManagedFieldsEntry) => (e.time ? Math.floor(Date.parse(e.time) / 1000) : 0);

/** The order the server writes entries in (sortEncodedManagedFields): Apply first, then oldest first. */
function entryOrder(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  const by = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  return (
    by(p.operation ?? '', q.operation ?? '') ||
    by(seconds(p), seconds(q)) ||
    by(p.manager ?? '', q.manager ?? '') ||
    by(p.apiVersion ?? '', q.apiVersion ?? '') ||
    by(p.subresource ?? '', q.subresource ?? '')
  );
}
