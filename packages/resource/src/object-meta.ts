/**
 * ObjectMeta and core/v1 ObjectReference: their stored form and their wire schemas (apimachinery
 * meta/v1 ObjectMeta, with the JSON tags that decide what is written), which every resource
 * shares. The stored form is what decodeWire makes of the wire form; encodeStruct writes it back.
 */
import type { JsonValue } from '@keel/apimachinery';
import {
  always,
  int64,
  list,
  named,
  ptr,
  raw,
  str,
  stringMap,
  struct,
  time,
  type StructSpec,
} from './wire-spec.js';

/** Go writes the four strings even when empty (absent here unless decoded with storeUnomittedZeros). */
export interface OwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  /** Time (whole seconds). */
  time?: string;
  fieldsType?: string;
  fieldsV1?: JsonValue;
  subresource?: string;
}

/** Object metadata in canonical stored form: zero values absent, Time fields whole seconds. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

const uid = named('types.UID');

const ownerReference = struct('v1.OwnerReference', {
  apiVersion: always(str),
  kind: always(str),
  name: always(str),
  uid: always(uid),
  controller: ptr({ t: 'bool' }),
  blockOwnerDeletion: ptr({ t: 'bool' }),
});

const managedFieldsEntry = struct('v1.ManagedFieldsEntry', {
  manager: str,
  operation: named('v1.ManagedFieldsOperationType'),
  apiVersion: str,
  time: ptr(time),
  fieldsType: str,
  fieldsV1: ptr(raw),
  subresource: str,
});

export const objectMetaSpec: StructSpec = struct('v1.ObjectMeta', {
  name: str,
  generateName: str,
  namespace: str,
  selfLink: str,
  uid,
  resourceVersion: str,
  generation: int64,
  creationTimestamp: time,
  deletionTimestamp: ptr(time),
  deletionGracePeriodSeconds: ptr(int64),
  labels: stringMap,
  annotations: stringMap,
  ownerReferences: list(ownerReference, '[]v1.OwnerReference'),
  finalizers: list(str, '[]string'),
  managedFields: list(managedFieldsEntry, '[]v1.ManagedFieldsEntry'),
});

/** metav1.ObjectReference-like `v1.ObjectReference` (core), every member omitempty. */
export const objectReferenceSpec: StructSpec = struct('v1.ObjectReference', {
  kind: str,
  namespace: str,
  name: str,
  uid,
  apiVersion: str,
  resourceVersion: str,
  fieldPath: str,
});

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}
