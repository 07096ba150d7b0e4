/**
 * The wire schemas of the two Event versions, with the Go type names their decode errors print
 * (k8s.io/api core/v1 and events/v1, apimachinery meta/v1).
 */
import type { StructSpec, WireSpec } from './wire-decode.js';

const str: WireSpec = { t: 'string' };
const uid: WireSpec = { t: 'string', goType: 'types.UID' };
const int32: WireSpec = { t: 'int', goType: 'int32' };
const int64: WireSpec = { t: 'int', goType: 'int64' };
const bool: WireSpec = { t: 'bool' };
const time: WireSpec = { t: 'time' };
const microTime: WireSpec = { t: 'microTime' };
const stringMap: WireSpec = { t: 'stringMap' };

function struct(goType: string, fields: Record<string, WireSpec>): StructSpec {
  return { t: 'struct', goType, fields };
}

const ownerReference = struct('v1.OwnerReference', {
  apiVersion: str,
  kind: str,
  name: str,
  uid,
  controller: bool,
  blockOwnerDeletion: bool,
});

const managedFieldsEntry = struct('v1.ManagedFieldsEntry', {
  manager: str,
  operation: { t: 'string', goType: 'v1.ManagedFieldsOperationType' },
  apiVersion: str,
  time,
  fieldsType: str,
  fieldsV1: { t: 'raw' },
  subresource: str,
});

export const objectMetaSpec = struct('v1.ObjectMeta', {
  name: str,
  generateName: str,
  namespace: str,
  selfLink: str,
  uid,
  resourceVersion: str,
  generation: int64,
  creationTimestamp: time,
  deletionTimestamp: time,
  deletionGracePeriodSeconds: int64,
  labels: stringMap,
  annotations: stringMap,
  ownerReferences: { t: 'list', goType: '[]v1.OwnerReference', item: ownerReference },
  finalizers: { t: 'list', goType: '[]string', item: str },
  managedFields: { t: 'list', goType: '[]v1.ManagedFieldsEntry', item: managedFieldsEntry },
});

const objectReference = struct('v1.ObjectReference', {
  kind: str,
  namespace: str,
  name: str,
  uid,
  apiVersion: str,
  resourceVersion: str,
  fieldPath: str,
});

const eventSource = struct('v1.EventSource', { component: str, host: str });
const eventSeries = struct('v1.EventSeries', { count: int32, lastObservedTime: microTime });

export const eventsV1EventSpec = struct('v1.Event', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  eventTime: microTime,
  series: eventSeries,
  reportingController: str,
  reportingInstance: str,
  action: str,
  reason: str,
  regarding: objectReference,
  related: objectReference,
  note: str,
  type: str,
  deprecatedSource: eventSource,
  deprecatedFirstTimestamp: time,
  deprecatedLastTimestamp: time,
  deprecatedCount: int32,
});

export const coreV1EventSpec = struct('v1.Event', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  involvedObject: objectReference,
  reason: str,
  message: str,
  source: eventSource,
  firstTimestamp: time,
  lastTimestamp: time,
  count: int32,
  type: str,
  eventTime: microTime,
  series: eventSeries,
  action: str,
  related: objectReference,
  reportingComponent: str,
  reportingInstance: str,
});
