/**
 * Building the stored Event in its canonical form (fixed member order, zero values absent) and
 * the pieces both wire versions share: ObjectReference, EventSource and EventSeries.
 */
import { compact } from './meta-codec.js';
import type { EventSeries, EventSource, InternalEvent, ObjectMeta, ObjectReference } from './types.js';

type Wire = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && v !== 0 ? v : undefined;
}

const refKeys = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const;

/** An ObjectReference without empty members (`{}` when all are empty). */
export function refFrom(w: unknown): ObjectReference {
  const r = (w ?? {}) as Wire;
  return compact<ObjectReference>(refKeys.map((k) => [k, str(r[k])] as const));
}

/** ObjectReference on the wire: Go's field order, every member omitempty. */
export function refToWire(r: ObjectReference | undefined): Wire {
  return compact<Wire>(refKeys.map((k) => [k, str(r?.[k])] as const));
}

export function sourceFrom(w: unknown): EventSource {
  const s = (w ?? {}) as Wire;
  return compact<EventSource>([
    ['component', str(s.component)],
    ['host', str(s.host)],
  ]);
}

export function sourceToWire(s: EventSource | undefined): Wire {
  return compact<Wire>([
    ['component', str(s?.component)],
    ['host', str(s?.host)],
  ]);
}

/** A Go pointer: absent stays absent, `{}` stays `{}`. */
export function seriesFrom(w: unknown): EventSeries | undefined {
  if (w === undefined || w === null) return undefined;
  const s = w as Wire;
  return compact<EventSeries>([
    ['count', num(s.count)],
    ['lastObservedTime', str(s.lastObservedTime)],
  ]);
}

function nonEmpty<T extends object>(o: T): T | undefined {
  return Object.keys(o).length > 0 ? o : undefined;
}

/** The stored Event in canonical form: zero values dropped, members in core/v1 order. */
export function makeEvent(e: InternalEvent): InternalEvent {
  const metadata: ObjectMeta = e.metadata;
  return compact<InternalEvent>([
    ['metadata', metadata],
    ['involvedObject', nonEmpty(refFrom(e.involvedObject))],
    ['reason', str(e.reason)],
    ['message', str(e.message)],
    ['source', nonEmpty(sourceFrom(e.source))],
    ['firstTimestamp', str(e.firstTimestamp)],
    ['lastTimestamp', str(e.lastTimestamp)],
    ['count', num(e.count)],
    ['type', str(e.type)],
    ['eventTime', str(e.eventTime)],
    ['series', seriesFrom(e.series)],
    ['action', str(e.action)],
    ['related', e.related === undefined ? undefined : refFrom(e.related)],
    ['reportingComponent', str(e.reportingComponent)],
    ['reportingInstance', str(e.reportingInstance)],
  ]);
}
