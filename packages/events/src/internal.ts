/**
 * Building the stored Event in its canonical form (fixed member order, zero values absent),
 * whichever wire version it was decoded from.
 */
import type { ObjectMeta, ObjectReference } from '@keel/resource';
import type { EventSeries, EventSource, InternalEvent } from './types.js';

type Wire = Record<string, unknown>;

/** One `[key, value]` pair of T, the value possibly undefined. */
type Entry<T> = { [K in keyof T & string]-?: readonly [K, T[K] | undefined] }[keyof T & string];

/** Copies the defined members in the given order; the result has no undefined members. */
function compact<T extends object>(entries: readonly Entry<T>[]): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) if (v !== undefined) out[k] = v;
  return out as T;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && v !== 0 ? v : undefined;
}

const refKeys = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const;

/** An ObjectReference without empty members (`{}` when all are empty). */
function refFrom(w: unknown): ObjectReference {
  const r = (w ?? {}) as Wire;
  return compact<ObjectReference>(refKeys.map((k) => [k, str(r[k])] as const));
}

function sourceFrom(w: unknown): EventSource {
  const s = (w ?? {}) as Wire;
  return compact<EventSource>([
    ['component', str(s.component)],
    ['host', str(s.host)],
  ]);
}

/** A Go pointer: absent stays absent, `{}` stays `{}`. */
function seriesFrom(w: unknown): EventSeries | undefined {
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
