import { describe, expect, it } from 'vitest';
import { StatusError } from '@keel/apimachinery';
import { pruneApplied } from './apply-prune.js';
import { leafPaths } from './field-set.js';
import { baseEntries, managerKey, recordManager, type ManagerWrite } from './managed-fields.js';
import type { InternalObject, ManagedFieldsEntry } from './resource-view.js';

type Wire = Record<string, unknown>;

const NOW = new Date('2024-05-01T10:00:00.500Z');
const EV = 'events.k8s.io/v1';

function obj(fields: Wire, entries: ManagedFieldsEntry[] = []): InternalObject & Wire {
  return { metadata: { name: 'e', namespace: 'ns', managedFields: entries }, ...fields };
}

/** The wire form is the object itself here; another version renames `note` to `message`. */
function write(
  before: Wire | undefined,
  after: Wire,
  over: Partial<ManagerWrite> & { manager: string; operation: 'Apply' | 'Update' },
): ManagerWrite {
  const asCore = (w: Wire): Wire => {
    const { note, ...rest } = w;
    return note === undefined ? rest : { ...rest, message: note };
  };
  return {
    apiVersion: EV,
    now: NOW,
    sent: after,
    wireIn: (v) =>
      v === 'v1' ? { before: before && asCore(before), after: asCore(after) } : { before, after },
    ...over,
  };
}

const entry = (manager: string, operation: string, fieldsV1: Wire, apiVersion = EV): ManagedFieldsEntry => ({
  manager,
  operation,
  apiVersion,
  time: '2024-05-01T09:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: fieldsV1 as ManagedFieldsEntry['fieldsV1'],
});

function conflictOf(f: () => void): { message: string; causes: unknown } {
  try {
    f();
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    expect([err.status.code, err.status.reason]).toEqual([409, 'Conflict']);
    return { message: err.status.message ?? '', causes: err.status.details?.causes };
  }
  throw new Error('no conflict');
}

describe('recordManager', () => {
  const live = { note: 'a', reason: 'r', labels: { x: '1' } };

  it('an Apply that changes a field another manager owns is a 409 naming manager and field', () => {
    const current = obj(live, [entry('creator', 'Update', { 'f:note': {}, 'f:reason': {} })]);
    const next = obj({ ...live, note: 'b' });
    const { message, causes } = conflictOf(() =>
      recordManager(
        next,
        current.metadata.managedFields ?? [],
        write(live, { ...live, note: 'b' }, { manager: 'me', operation: 'Apply' }),
      ),
    );
    expect(message).toBe(`Apply failed with 1 conflict: conflict with "creator" using ${EV}: .note`);
    expect(causes).toEqual([
      { reason: 'FieldManagerConflict', message: `conflict with "creator" using ${EV}`, field: '.note' },
    ]);
  });

  it('lists several conflicts by manager (sorted), leaves before nested fields', () => {
    const entries = [
      entry('zed', 'Apply', { 'f:reason': {} }),
      entry('amy', 'Apply', { 'f:labels': { 'f:x': {} }, 'f:note': {} }),
    ];
    const after = { note: 'b', reason: 's', labels: { x: '2' } };
    const { message, causes } = conflictOf(() =>
      recordManager(obj(after), entries, write(live, after, { manager: 'me', operation: 'Apply' })),
    );
    expect(message).toBe(
      'Apply failed with 3 conflicts: conflicts with "amy":\n- .note\n- .labels.x\nconflicts with "zed":\n- .reason',
    );
    expect((causes as { field: string }[]).map((c) => c.field)).toEqual(['.note', '.labels.x', '.reason']);
  });

  it.each<[string, boolean, Record<string, Wire>]>([
    ['same value: both own it', false, { 'creator/Update': { 'f:note': {} }, 'me/Apply': { 'f:note': {} } }],
    ['force: the applier takes it', true, { 'me/Apply': { 'f:note': {} } }],
  ])('%s', (_name, force, expected) => {
    const value = force ? 'b' : 'a';
    const next = obj({ note: value });
    recordManager(
      next,
      [entry('creator', 'Update', { 'f:note': {} })],
      write({ note: 'a' }, { note: value }, { manager: 'me', operation: 'Apply', force }),
    );
    const owned = Object.fromEntries(
      (next.metadata.managedFields ?? []).map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]),
    );
    expect(owned).toEqual(expected);
  });

  it('an Update takes what it changes from appliers too, and never conflicts', () => {
    const next = obj({ note: 'b', reason: 'r' });
    recordManager(
      next,
      [entry('applier', 'Apply', { 'f:note': {}, 'f:reason': {} })],
      write(
        { note: 'a', reason: 'r' },
        { note: 'b', reason: 'r' },
        { manager: 'editor', operation: 'Update' },
      ),
    );
    expect(next.metadata.managedFields).toEqual([
      entry('applier', 'Apply', { 'f:reason': {} }),
      {
        manager: 'editor',
        operation: 'Update',
        apiVersion: EV,
        time: '2024-05-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:note': {} },
      },
    ]);
  });

  it('compares an entry in the version it was recorded in', () => {
    // A core v1 manager owns `message`; the events.k8s.io request changes `note`, the same field.
    const coreEntry = entry('legacy', 'Update', { 'f:message': {} }, 'v1');
    const { message } = conflictOf(() =>
      recordManager(
        obj({ note: 'b' }),
        [coreEntry],
        write({ note: 'a' }, { note: 'b' }, { manager: 'me', operation: 'Apply' }),
      ),
    );
    expect(message).toBe('Apply failed with 1 conflict: conflict with "legacy" using v1: .message');
    const kept = obj({ note: 'a', reason: 'x' });
    recordManager(
      kept,
      [coreEntry],
      write({ note: 'a' }, { note: 'a', reason: 'x' }, { manager: 'me', operation: 'Update' }),
    );
    expect(kept.metadata.managedFields?.map((e) => e.manager)).toEqual(['legacy', 'me']);
  });

  it('an updater through two versions keeps two entries; an applier keeps one', () => {
    expect(managerKey({ manager: 'm', operation: 'Update', apiVersion: 'v1' })).not.toBe(
      managerKey({ manager: 'm', operation: 'Update', apiVersion: EV }),
    );
    expect(managerKey({ manager: 'm', operation: 'Apply', apiVersion: 'v1' })).toBe(
      managerKey({ manager: 'm', operation: 'Apply', apiVersion: EV }),
    );
  });
});

describe('baseEntries', () => {
  const liveEntries = [entry('a', 'Update', { 'f:note': {} })];
  const current = obj({}, liveEntries);
  it.each<[string, ManagedFieldsEntry[], 'Apply' | 'Update', ManagedFieldsEntry[]]>([
    [
      'an update sending its own entries replaces the live ones',
      [entry('b', 'Apply', { 'f:note': {} })],
      'Update',
      [entry('b', 'Apply', { 'f:note': {} })],
    ],
    ['an update sending none keeps them', [], 'Update', liveEntries],
    ['an apply always starts from the live ones', [entry('b', 'Apply', {})], 'Apply', liveEntries],
  ])('%s', (_n, sent, operation, expected) => {
    expect(baseEntries(obj({}, sent), current, operation)).toEqual(expected);
  });
  it('a create starts from none', () => {
    expect(baseEntries(obj({}, liveEntries), undefined, 'Update')).toEqual([]);
  });
});

describe('pruneApplied', () => {
  const merged = { note: 'n', labels: { a: '1', b: '2', c: '3' } };
  const last = entry('me', 'Apply', { 'f:note': {}, 'f:labels': { 'f:a': {}, 'f:b': {}, 'f:c': {} } });
  it.each<[string, ManagedFieldsEntry[], Wire]>([
    ['removes what the manager no longer applies', [last], { note: 'n', labels: { a: '1' } }],
    [
      'keeps what another manager owns',
      [last, entry('other', 'Update', { 'f:labels': { 'f:c': {} } })],
      { note: 'n', labels: { a: '1', c: '3' } },
    ],
    ['leaves the object alone for a first apply', [], merged],
    [
      'leaves it alone when the last apply was through another version',
      [{ ...last, apiVersion: 'v1' }],
      merged,
    ],
  ])('%s', (_n, entries, expected) => {
    expect(
      pruneApplied(merged, entries, {
        manager: 'me',
        apiVersion: EV,
        config: { note: 'n', labels: { a: '1' } },
      }),
    ).toEqual(expected);
  });
});

describe('leafPaths', () => {
  it('orders like structured-merge-diff: members first, then children, each sorted', () => {
    expect(
      leafPaths({ 'f:metadata': { 'f:labels': { 'f:b': {}, 'f:a': {} } }, 'f:type': {}, 'f:action': {} }),
    ).toEqual(['.action', '.type', '.metadata.labels.a', '.metadata.labels.b']);
  });
});
