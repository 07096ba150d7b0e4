/**
 * events.k8s.io/v1 Event ↔ the stored Event (api-semantics §1.1): regarding ↔ involvedObject,
 * note ↔ message, deprecatedSource/FirstTimestamp/LastTimestamp/Count ↔ source/firstTimestamp/
 * lastTimestamp/count, reportingController ↔ reportingComponent.
 */
import { decodeTyped, encodeStruct, type Decoded } from '@keel/resource';
import { makeEvent } from './internal.js';
import { eventsV1EventTarget } from './scheme.js';
import type { InternalEvent } from './types.js';
import { eventDecodeOptions, eventsV1EventSpec } from './wire-schema.js';

type Wire = Record<string, unknown>;

/** decodeWire has checked every member's type, so these casts only name what is there. */
const s = (v: unknown): string | undefined => v as string | undefined;
const n = (v: unknown): number | undefined => v as number | undefined;

export function eventsV1ToInternal(w: Wire): InternalEvent {
  return makeEvent({
    metadata: (w.metadata as InternalEvent['metadata'] | undefined) ?? {},
    involvedObject: w.regarding as InternalEvent['involvedObject'],
    reason: s(w.reason),
    message: s(w.note),
    source: w.deprecatedSource as InternalEvent['source'],
    firstTimestamp: s(w.deprecatedFirstTimestamp),
    lastTimestamp: s(w.deprecatedLastTimestamp),
    count: n(w.deprecatedCount),
    type: s(w.type),
    eventTime: s(w.eventTime),
    series: w.series as InternalEvent['series'],
    action: s(w.action),
    related: w.related as InternalEvent['related'],
    reportingComponent: s(w.reportingController),
    reportingInstance: s(w.reportingInstance),
  });
}

export function decodeEventsV1(body: unknown): Decoded<InternalEvent> {
  const { value, unknownFields } = decodeTyped(
    body,
    eventsV1EventTarget,
    eventsV1EventSpec,
    eventDecodeOptions,
  );
  return { object: eventsV1ToInternal(value), unknownFields };
}

/** Go writes the struct-valued members even when zero: `{}` or `null`. */
export function encodeEventsV1(e: InternalEvent): Wire {
  const wire: Wire = {
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    metadata: e.metadata,
    eventTime: e.eventTime,
    series: e.series,
    reportingController: e.reportingComponent,
    reportingInstance: e.reportingInstance,
    action: e.action,
    reason: e.reason,
    regarding: e.involvedObject,
    related: e.related,
    note: e.message,
    type: e.type,
    deprecatedSource: e.source,
    deprecatedFirstTimestamp: e.firstTimestamp,
    deprecatedLastTimestamp: e.lastTimestamp,
    deprecatedCount: e.count,
  };
  return encodeStruct(wire, eventsV1EventSpec);
}
