/**
 * events.k8s.io/v1 Event ↔ the stored Event (api-semantics §1.1): regarding ↔ involvedObject,
 * note ↔ message, deprecatedSource/FirstTimestamp/LastTimestamp/Count ↔ source/firstTimestamp/
 * lastTimestamp/count, reportingController ↔ reportingComponent.
 */
import { makeEvent, refFrom, refToWire, seriesFrom, sourceFrom, sourceToWire } from './internal.js';
import { compact, metaFromWire, metaToWire } from './meta-codec.js';
import { decodeTyped, type GroupVersion } from './type-meta.js';
import type { DecodeResult, InternalEvent } from './types.js';
import { eventsV1EventSpec } from './wire-schema.js';

type Wire = Record<string, unknown>;

export const eventsV1GroupVersion: GroupVersion = { group: 'events.k8s.io', version: 'v1' };

/** decodeWire has checked every member's type, so these casts only name what is there. */
const s = (v: unknown): string | undefined => v as string | undefined;
const n = (v: unknown): number | undefined => v as number | undefined;

export function eventsV1ToInternal(w: Wire): InternalEvent {
  return makeEvent({
    metadata: metaFromWire(w.metadata as Wire | undefined),
    involvedObject: refFrom(w.regarding),
    reason: s(w.reason),
    message: s(w.note),
    source: sourceFrom(w.deprecatedSource),
    firstTimestamp: s(w.deprecatedFirstTimestamp),
    lastTimestamp: s(w.deprecatedLastTimestamp),
    count: n(w.deprecatedCount),
    type: s(w.type),
    eventTime: s(w.eventTime),
    series: seriesFrom(w.series),
    action: s(w.action),
    related: w.related === undefined ? undefined : refFrom(w.related),
    reportingComponent: s(w.reportingController),
    reportingInstance: s(w.reportingInstance),
  });
}

export function decodeEventsV1(body: unknown): DecodeResult<InternalEvent> {
  const { value, unknownFields } = decodeTyped(body, eventsV1GroupVersion, eventsV1EventSpec);
  return { object: eventsV1ToInternal(value), unknownFields };
}

const orAbsent = (v: string | undefined): string | undefined => (v ? v : undefined);

/** Go writes the struct-valued members even when zero: `{}` or `null`. */
export function encodeEventsV1(e: InternalEvent): Wire {
  return compact<Wire>([
    ['kind', 'Event'],
    ['apiVersion', 'events.k8s.io/v1'],
    ['metadata', metaToWire(e.metadata)],
    ['eventTime', e.eventTime ?? null],
    [
      'series',
      e.series
        ? { count: e.series.count ?? 0, lastObservedTime: e.series.lastObservedTime ?? null }
        : undefined,
    ],
    ['reportingController', orAbsent(e.reportingComponent)],
    ['reportingInstance', orAbsent(e.reportingInstance)],
    ['action', orAbsent(e.action)],
    ['reason', orAbsent(e.reason)],
    ['regarding', refToWire(e.involvedObject)],
    ['related', e.related ? refToWire(e.related) : undefined],
    ['note', orAbsent(e.message)],
    ['type', orAbsent(e.type)],
    ['deprecatedSource', sourceToWire(e.source)],
    ['deprecatedFirstTimestamp', e.firstTimestamp ?? null],
    ['deprecatedLastTimestamp', e.lastTimestamp ?? null],
    ['deprecatedCount', e.count ? e.count : undefined],
  ]);
}
