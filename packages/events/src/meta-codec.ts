/**
 * ObjectMeta between its decoded wire form and the stored form, and back to the wire in Go's
 * field order with Go's omitempty rules (a zero creationTimestamp is written as null, because
 * Go never omits a struct value).
 */
import { cloneJson, type JsonValue } from '@keel/apimachinery';
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from './types.js';

type Wire = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && v !== 0 ? v : undefined;
}

function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

/** One `[key, value]` pair of T, the value possibly undefined. */
export type Entry<T> = { [K in keyof T & string]-?: readonly [K, T[K] | undefined] }[keyof T & string];

/** Copies the defined members in the given order; the result has no undefined members. */
export function compact<T extends object>(entries: readonly Entry<T>[]): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) if (v !== undefined) out[k] = v;
  return out as T;
}

function ownerReference(w: Wire): OwnerReference {
  return compact<OwnerReference>([
    ['apiVersion', typeof w.apiVersion === 'string' ? w.apiVersion : ''],
    ['kind', typeof w.kind === 'string' ? w.kind : ''],
    ['name', typeof w.name === 'string' ? w.name : ''],
    ['uid', typeof w.uid === 'string' ? w.uid : ''],
    ['controller', bool(w.controller)],
    ['blockOwnerDeletion', bool(w.blockOwnerDeletion)],
  ]);
}

function managedFieldsEntry(w: Wire): ManagedFieldsEntry {
  return compact<ManagedFieldsEntry>([
    ['manager', str(w.manager)],
    ['operation', str(w.operation)],
    ['apiVersion', str(w.apiVersion)],
    ['time', str(w.time)],
    ['fieldsType', str(w.fieldsType)],
    ['fieldsV1', w.fieldsV1 as JsonValue | undefined],
    ['subresource', str(w.subresource)],
  ]);
}

function list<T>(v: unknown, item: (w: Wire) => T): T[] | undefined {
  return Array.isArray(v) ? v.map((x) => item(x as Wire)) : undefined;
}

/** The stored form of metadata that decodeWire already checked and normalised. */
export function metaFromWire(w: Wire | undefined): ObjectMeta {
  if (!w) return {};
  return compact<ObjectMeta>([
    ['name', str(w.name)],
    ['generateName', str(w.generateName)],
    ['namespace', str(w.namespace)],
    ['selfLink', str(w.selfLink)],
    ['uid', str(w.uid)],
    ['resourceVersion', str(w.resourceVersion)],
    ['generation', num(w.generation)],
    ['creationTimestamp', str(w.creationTimestamp)],
    ['deletionTimestamp', str(w.deletionTimestamp)],
    // A pointer in Go: 0 is a value, not "unset".
    [
      'deletionGracePeriodSeconds',
      typeof w.deletionGracePeriodSeconds === 'number' ? w.deletionGracePeriodSeconds : undefined,
    ],
    ['labels', w.labels as Record<string, string> | undefined],
    ['annotations', w.annotations as Record<string, string> | undefined],
    ['ownerReferences', list(w.ownerReferences, ownerReference)],
    ['finalizers', w.finalizers as string[] | undefined],
    ['managedFields', list(w.managedFields, managedFieldsEntry)],
  ]);
}

function nonEmptyMap(m: Record<string, string> | undefined): Record<string, string> | undefined {
  return m && Object.keys(m).length > 0 ? { ...m } : undefined;
}

function nonEmptyList<T, U>(l: readonly T[] | undefined, f: (x: T) => U): U[] | undefined {
  return l && l.length > 0 ? l.map(f) : undefined;
}

/** Metadata on the wire, in ObjectMeta's field order. */
export function metaToWire(m: ObjectMeta): Wire {
  return compact<Wire>([
    ['name', str(m.name)],
    ['generateName', str(m.generateName)],
    ['namespace', str(m.namespace)],
    ['selfLink', str(m.selfLink)],
    ['uid', str(m.uid)],
    ['resourceVersion', str(m.resourceVersion)],
    ['generation', num(m.generation)],
    ['creationTimestamp', m.creationTimestamp ?? null],
    ['deletionTimestamp', str(m.deletionTimestamp)],
    ['deletionGracePeriodSeconds', m.deletionGracePeriodSeconds],
    ['labels', nonEmptyMap(m.labels)],
    ['annotations', nonEmptyMap(m.annotations)],
    ['ownerReferences', nonEmptyList(m.ownerReferences, (r) => cloneJson(r))],
    ['finalizers', nonEmptyList(m.finalizers, (f) => f)],
    ['managedFields', nonEmptyList(m.managedFields, (e) => cloneJson(e))],
  ]);
}
