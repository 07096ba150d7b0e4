/**
 * core/v1 Event ↔ the stored Event. The shapes match: the stored reportingComponent is Go's
 * ReportingController under its core/v1 JSON name.
 */
import { decodeTyped, encodeStruct, type Decoded } from '@keel/resource';
import { makeEvent } from './internal.js';
import { coreV1EventTarget } from './scheme.js';
import type { InternalEvent } from './types.js';
import { coreV1EventSpec, eventDecodeOptions } from './wire-schema.js';

type Wire = Record<string, unknown>;

/** decodeWire has checked every member's type, so these casts only name what is there. */
const s = (v: unknown): string | undefined => v as string | undefined;
const n = (v: unknown): number | undefined => v as number | undefined;

export function coreV1ToInternal(w: Wire): InternalEvent {
  return makeEvent({
    metadata: (w.metadata as InternalEvent['metadata'] | undefined) ?? {},
    involvedObject: w.involvedObject as InternalEvent['involvedObject'],
    reason: s(w.reason),
    message: s(w.message),
    source: w.source as InternalEvent['source'],
    firstTimestamp: s(w.firstTimestamp),
    lastTimestamp: s(w.lastTimestamp),
    count: n(w.count),
    type: s(w.type),
    eventTime: s(w.eventTime),
    series: w.series as InternalEvent['series'],
    action: s(w.action),
    related: w.related as InternalEvent['related'],
    reportingComponent: s(w.reportingComponent),
    reportingInstance: s(w.reportingInstance),
  });
}

export function decodeCoreV1(body: unknown): Decoded<InternalEvent> {
  const { value, unknownFields } = decodeTyped(body, coreV1EventTarget, coreV1EventSpec, eventDecodeOptions);
  return { object: coreV1ToInternal(value), unknownFields };
}

/** Go writes the non-omitempty members (involvedObject, source, the timestamps, the reporter) even when zero. */
export function encodeCoreV1(e: InternalEvent): Wire {
  return encodeStruct({ ...e, kind: 'Event', apiVersion: 'v1' }, coreV1EventSpec);
}
