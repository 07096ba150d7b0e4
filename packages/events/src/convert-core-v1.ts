/**
 * core/v1 Event ↔ the stored Event. The shapes match except that the stored reportingComponent
 * is written as is and that Go writes the non-omitempty members (involvedObject, source, the
 * timestamps, reportingComponent, reportingInstance) even when zero.
 */
import { makeEvent, refFrom, refToWire, seriesFrom, sourceFrom, sourceToWire } from './internal.js';
import { compact, metaFromWire, metaToWire } from './meta-codec.js';
import { decodeTyped, type GroupVersion } from './type-meta.js';
import type { DecodeResult, InternalEvent } from './types.js';
import { coreV1EventSpec } from './wire-schema.js';

type Wire = Record<string, unknown>;

export const coreV1GroupVersion: GroupVersion = { group: '', version: 'v1' };

/** decodeWire has checked every member's type, so these casts only name what is there. */
const s = (v: unknown): string | undefined => v as string | undefined;
const n = (v: unknown): number | undefined => v as number | undefined;

export function coreV1ToInternal(w: Wire): InternalEvent {
  return makeEvent({
    metadata: metaFromWire(w.metadata as Wire | undefined),
    involvedObject: refFrom(w.involvedObject),
    reason: s(w.reason),
    message: s(w.message),
    source: sourceFrom(w.source),
    firstTimestamp: s(w.firstTimestamp),
    lastTimestamp: s(w.lastTimestamp),
    count: n(w.count),
    type: s(w.type),
    eventTime: s(w.eventTime),
    series: seriesFrom(w.series),
    action: s(w.action),
    related: w.related === undefined ? undefined : refFrom(w.related),
    reportingComponent: s(w.reportingComponent),
    reportingInstance: s(w.reportingInstance),
  });
}

export function decodeCoreV1(body: unknown): DecodeResult<InternalEvent> {
  const { value, unknownFields } = decodeTyped(body, coreV1GroupVersion, coreV1EventSpec);
  return { object: coreV1ToInternal(value), unknownFields };
}

const orAbsent = (v: string | undefined): string | undefined => (v ? v : undefined);

export function encodeCoreV1(e: InternalEvent): Wire {
  const series = e.series
    ? compact<Wire>([
        ['count', e.series.count ? e.series.count : undefined],
        ['lastObservedTime', e.series.lastObservedTime ?? null],
      ])
    : undefined;
  return compact<Wire>([
    ['kind', 'Event'],
    ['apiVersion', 'v1'],
    ['metadata', metaToWire(e.metadata)],
    ['involvedObject', refToWire(e.involvedObject)],
    ['reason', orAbsent(e.reason)],
    ['message', orAbsent(e.message)],
    ['source', sourceToWire(e.source)],
    ['firstTimestamp', e.firstTimestamp ?? null],
    ['lastTimestamp', e.lastTimestamp ?? null],
    ['count', e.count ? e.count : undefined],
    ['type', orAbsent(e.type)],
    ['eventTime', e.eventTime ?? null],
    ['series', series],
    ['action', orAbsent(e.action)],
    ['related', e.related ? refToWire(e.related) : undefined],
    ['reportingComponent', e.reportingComponent ?? ''],
    ['reportingInstance', e.reportingInstance ?? ''],
  ]);
}
