/**
 * The strict Event rules that only events.k8s.io/v1 requests get, on top of the legacy ones
 * (pkg/apis/core/validation/events.go ValidateEventCreate/ValidateEventUpdate; §1.2).
 *
 * An immutable-field error shows the new value as Go's field.Error prints it: strings quoted,
 * the count bare, everything else JSON-marshalled. The stored types have no json tags, so an
 * ObjectReference prints with Go's field names (`{"Kind":"Pod","Namespace":"",...}`), and a zero
 * timestamp or an absent `related` prints as `null`.
 */
import {
  fieldImmutableErrorMsg,
  invalidValue,
  nameIsDNSSubdomain,
  required,
  type FieldError,
} from '@keel/apimachinery';
import { validateCoreMeta, validateCoreMetaUpdate, type ObjectReference } from '@keel/resource';
import type { EventSeries, EventSource, InternalEvent } from './types.js';

const eventTypes = new Set(['Normal', 'Warning']);

function seriesErrors(series: EventSeries | undefined): FieldError[] {
  if (!series) return [];
  const errs: FieldError[] = [];
  if ((series.count ?? 0) < 2) errs.push(invalidValue('series.count', '', 'should be at least 2'));
  if (!series.lastObservedTime) errs.push(required('series.lastObservedTime'));
  return errs;
}

export function validateEventStrictCreate(e: InternalEvent): FieldError[] {
  // core ValidateObjectMeta with DNS-1123 subdomain names, as ValidateEventCreate calls it.
  const errs = [...validateCoreMeta(e.metadata, true, nameIsDNSSubdomain), ...seriesErrors(e.series)];
  if (!e.eventTime) errs.push(required('eventTime'));
  const type = e.type ?? '';
  if (!eventTypes.has(type)) errs.push(invalidValue('type', '', `has invalid value: ${type}`));
  const mustBeUnset = (field: string, set: boolean): void => {
    if (set) errs.push(invalidValue(field, '', 'needs to be unset'));
  };
  mustBeUnset('firstTimestamp', Boolean(e.firstTimestamp));
  mustBeUnset('lastTimestamp', Boolean(e.lastTimestamp));
  mustBeUnset('count', (e.count ?? 0) !== 0);
  mustBeUnset('source', Boolean(e.source?.component || e.source?.host));
  return errs;
}

/** json.Marshal of the stored core.ObjectReference. */
function goRef(r: ObjectReference): Record<string, string> {
  return {
    Kind: r.kind ?? '',
    Namespace: r.namespace ?? '',
    Name: r.name ?? '',
    UID: r.uid ?? '',
    APIVersion: r.apiVersion ?? '',
    ResourceVersion: r.resourceVersion ?? '',
    FieldPath: r.fieldPath ?? '',
  };
}

function goSource(s: EventSource | undefined): Record<string, string> {
  return { Component: s?.component ?? '', Host: s?.host ?? '' };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sameSeries(a: EventSeries | undefined, b: EventSeries | undefined): boolean {
  if (!a || !b) return a === b;
  return (a.count ?? 0) === (b.count ?? 0) && (a.lastObservedTime ?? '') === (b.lastObservedTime ?? '');
}

/** [path, rendered new value, rendered old value] in Go's order, `reason` twice as upstream has it. */
function immutableFields(e: InternalEvent, old: InternalEvent): [string, unknown, unknown][] {
  const related = (x: InternalEvent): unknown => (x.related ? goRef(x.related) : null);
  return [
    ['involvedObject', goRef(e.involvedObject ?? {}), goRef(old.involvedObject ?? {})],
    ['reason', e.reason ?? '', old.reason ?? ''],
    ['message', e.message ?? '', old.message ?? ''],
    ['source', goSource(e.source), goSource(old.source)],
    ['firstTimestamp', e.firstTimestamp ?? null, old.firstTimestamp ?? null],
    ['lastTimestamp', e.lastTimestamp ?? null, old.lastTimestamp ?? null],
    ['count', e.count ?? 0, old.count ?? 0],
    ['reason', e.reason ?? '', old.reason ?? ''],
    ['type', e.type ?? '', old.type ?? ''],
    // Both are held at µs precision, which is exactly the truncated comparison Go makes.
    ['eventTime', e.eventTime ?? null, old.eventTime ?? null],
    ['action', e.action ?? '', old.action ?? ''],
    ['related', related(e), related(old)],
    ['reportingController', e.reportingComponent ?? '', old.reportingComponent ?? ''],
    ['reportingInstance', e.reportingInstance ?? '', old.reportingInstance ?? ''],
  ];
}

/** The strategy part of an events.k8s.io/v1 update, after the legacy rules. */
export function validateEventStrictUpdate(e: InternalEvent, old: InternalEvent): FieldError[] {
  const errs = validateCoreMetaUpdate(e.metadata, old.metadata);
  if (!sameSeries(e.series, old.series)) errs.push(...seriesErrors(e.series));
  for (const [field, next, prev] of immutableFields(e, old)) {
    if (!sameJson(next, prev)) errs.push(invalidValue(field, next, fieldImmutableErrorMsg));
  }
  return errs;
}
