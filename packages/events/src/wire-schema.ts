/**
 * The wire schemas of the two Event versions, with the Go type names their decode errors print
 * and the JSON tags that decide what is written (k8s.io/api core/v1 and events/v1).
 */
import {
  always,
  int32,
  microTime,
  objectMetaSpec,
  objectReferenceSpec,
  ptr,
  str,
  struct,
  time,
  type DecodeOptions,
} from '@keel/resource';

/**
 * The stored Event keeps what the sender wrote where emptiness means something (`managedFields:
 * []` resets managed fields) and the owner reference members Go always writes.
 */
export const eventDecodeOptions: DecodeOptions = { keepEmptyCollections: true, storeUnomittedZeros: true };

const eventSource = struct('v1.EventSource', { component: str, host: str });

export const eventsV1EventSpec = struct('v1.Event', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  eventTime: microTime,
  // events.k8s.io/v1's EventSeries has no omitempty, so an empty series is written with count 0.
  series: ptr(struct('v1.EventSeries', { count: always(int32), lastObservedTime: microTime })),
  reportingController: str,
  reportingInstance: str,
  action: str,
  reason: str,
  regarding: objectReferenceSpec,
  related: ptr(objectReferenceSpec),
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
  involvedObject: objectReferenceSpec,
  reason: str,
  message: str,
  source: eventSource,
  firstTimestamp: time,
  lastTimestamp: time,
  count: int32,
  type: str,
  eventTime: microTime,
  series: ptr(struct('v1.EventSeries', { count: int32, lastObservedTime: microTime })),
  action: str,
  related: ptr(objectReferenceSpec),
  reportingComponent: always(str),
  reportingInstance: always(str),
});
