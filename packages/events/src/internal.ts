/**
 * Building the stored Event in its canonical form (fixed member order, zero values absent),
 * whichever wire version it was decoded from.
 */
import type { ObjectReference } from '@keel/resource';
import type { EventSeries, EventSource, InternalEvent } from './types.js';

type Wire = Record<string, unknown>;

/** Sets `key` unless `value` is undefined: the result has no undefined members. */
function put(out: Wire, key: string, value: unknown): void {
  if (value !== undefined) out[key] = value;
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
  const out: Wire = {};
  for (const k of refKeys) put(out, k, str(r[k]));
  return out;
}

function sourceFrom(w: unknown): EventSource {
  const s = (w ?? {}) as Wire;
  const out: Wire = {};
  put(out, 'component', str(s.component));
  put(out, 'host', str(s.host));
  return out;
}

/** A Go pointer: absent stays absent, `{}` stays `{}`. */
function seriesFrom(w: unknown): EventSeries | undefined {
  if (w === undefined || w === null) return undefined;
  const s = w as Wire;
  const out: Wire = {};
  put(out, 'count', num(s.count));
  put(out, 'lastObservedTime', str(s.lastObservedTime));
  return out;
}

function nonEmpty<T extends object>(o: T): T | undefined {
  return Object.keys(o).length > 0 ? o : undefined;
}

/** The stored Event in canonical form: zero values dropped, members in core/v1 order. */
export function makeEvent(e: InternalEvent): InternalEvent {
  // Member by member rather than from a list of pairs: every Event decoded is built here.
  const out: Wire = {};
  put(out, 'metadata', e.metadata);
  put(out, 'involvedObject', nonEmpty(refFrom(e.involvedObject)));
  put(out, 'reason', str(e.reason));
  put(out, 'message', str(e.message));
  put(out, 'source', nonEmpty(sourceFrom(e.source)));
  put(out, 'firstTimestamp', str(e.firstTimestamp));
  put(out, 'lastTimestamp', str(e.lastTimestamp));
  put(out, 'count', num(e.count));
  put(out, 'type', str(e.type));
  put(out, 'eventTime', str(e.eventTime));
  put(out, 'series', seriesFrom(e.series));
  put(out, 'action', str(e.action));
  put(out, 'related', e.related === undefined ? undefined : refFrom(e.related));
  put(out, 'reportingComponent', str(e.reportingComponent));
  put(out, 'reportingInstance', str(e.reportingInstance));
  return out as unknown as InternalEvent;
}
