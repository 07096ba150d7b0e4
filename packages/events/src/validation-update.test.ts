import { describe, expect, it } from 'vitest';
import { fieldErrorString, invalid } from '@keel/apimachinery';
import { coreV1EventView, eventInvalidKind, eventsV1View } from './views.js';
import { makeEvent } from './internal.js';
import type { FieldError } from '@keel/apimachinery';
import type { InternalEvent } from './types.js';

const meta = {
  name: 'ev1',
  namespace: 'default',
  uid: 'u-1',
  resourceVersion: '7',
  creationTimestamp: '2024-05-01T10:00:00Z',
};

const stored: InternalEvent = makeEvent({
  metadata: meta,
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'p1' },
  reason: 'Scheduled',
  message: 'assigned',
  type: 'Normal',
  eventTime: '2024-05-01T10:00:00.123456Z',
  action: 'Binding',
  reportingComponent: 'default-scheduler',
  reportingInstance: 'sched-1',
});

function edit(patch: Partial<InternalEvent>): InternalEvent {
  return makeEvent({ ...stored, ...patch, metadata: { ...stored.metadata, ...patch.metadata } });
}

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);
const immutable = (field: string, shown: string): string =>
  `${field}: Invalid value: ${shown}: field is immutable`;
const series = { count: 2, lastObservedTime: '2024-05-01T10:01:00.000000Z' };

describe('events.k8s.io/v1 update: only series, labels and annotations may change', () => {
  it.each<[string, Partial<InternalEvent>, string[]]>([
    ['no change', {}, []],
    ['a new label and annotation', { metadata: { labels: { a: 'b' }, annotations: { x: 'y' } } }, []],
    ['a new valid series', { series }, []],
    [
      'a new series of one',
      { series: { ...series, count: 1 } },
      ['series.count: Invalid value: "": should be at least 2'],
    ],
    [
      'a new series without lastObservedTime',
      { series: { count: 3 } },
      ['series.lastObservedTime: Required value'],
    ],
    [
      'regarding',
      { involvedObject: { kind: 'Pod', namespace: 'default', name: 'p2' } },
      [
        immutable(
          'involvedObject',
          '{"Kind":"Pod","Namespace":"default","Name":"p2","UID":"","APIVersion":"","ResourceVersion":"","FieldPath":""}',
        ),
      ],
    ],
    ['note', { message: 'changed' }, [immutable('message', '"changed"')]],
    [
      'deprecatedSource',
      { source: { component: 'x' } },
      [immutable('source', '{"Component":"x","Host":""}')],
    ],
    [
      'deprecatedFirstTimestamp',
      { firstTimestamp: '2024-05-01T09:00:00Z' },
      [immutable('firstTimestamp', '"2024-05-01T09:00:00Z"')],
    ],
    [
      'deprecatedLastTimestamp',
      { lastTimestamp: '2024-05-01T09:00:00Z' },
      [immutable('lastTimestamp', '"2024-05-01T09:00:00Z"')],
    ],
    ['deprecatedCount', { count: 5 }, [immutable('count', '5')]],
    ['type', { type: 'Warning' }, [immutable('type', '"Warning"')]],
    [
      'eventTime',
      { eventTime: '2024-05-01T10:00:01.000000Z' },
      [immutable('eventTime', '"2024-05-01T10:00:01.000000Z"')],
    ],
    ['action', { action: 'Preempting' }, [immutable('action', '"Preempting"')]],
    [
      'related added',
      { related: { kind: 'Node', name: 'n1' } },
      [
        immutable(
          'related',
          '{"Kind":"Node","Namespace":"","Name":"n1","UID":"","APIVersion":"","ResourceVersion":"","FieldPath":""}',
        ),
      ],
    ],
    [
      'an empty related added',
      { related: {} },
      [
        immutable(
          'related',
          '{"Kind":"","Namespace":"","Name":"","UID":"","APIVersion":"","ResourceVersion":"","FieldPath":""}',
        ),
      ],
    ],
    ['reportingController', { reportingComponent: 'other' }, [immutable('reportingController', '"other"')]],
    ['reportingInstance', { reportingInstance: 'sched-2' }, [immutable('reportingInstance', '"sched-2"')]],
    [
      'reportingInstance removed: legacy rule first',
      { reportingInstance: '' },
      ['reportingInstance: Required value', immutable('reportingInstance', '""')],
    ],
    // Upstream compares reason twice, so the cause appears twice (the message lists it once).
    ['reason', { reason: 'Other' }, [immutable('reason', '"Other"'), immutable('reason', '"Other"')]],
    // The generic layer and the strict rules both run ObjectMeta update validation.
    [
      'the name',
      { metadata: { name: 'ev2' } },
      [immutable('metadata.name', '"ev2"'), immutable('metadata.name', '"ev2"')],
    ],
    [
      'no resourceVersion',
      { metadata: { resourceVersion: '' } },
      [
        'metadata.resourceVersion: Invalid value: "": must be specified for an update',
        'metadata.resourceVersion: Invalid value: "": must be specified for an update',
      ],
    ],
    [
      'a non-standard finalizer',
      { metadata: { finalizers: ['foo'] } },
      [
        'metadata.finalizers[0]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ],
  ])('%s', (_name, patch, want) => {
    expect(strings(eventsV1View.validateUpdate(edit(patch), stored))).toEqual(want);
  });

  it('does not re-validate an unchanged series', () => {
    const old = edit({ series: { count: 1 } });
    expect(strings(eventsV1View.validateUpdate(old, old))).toEqual([]);
  });

  it('treats the removal of related as a change to null', () => {
    const old = edit({ related: { kind: 'Node', name: 'n1' } });
    expect(strings(eventsV1View.validateUpdate(stored, old))).toEqual([immutable('related', 'null')]);
  });

  it('ignores sub-microsecond differences in eventTime', () => {
    const body = eventsV1View.encode(stored);
    body.eventTime = '2024-05-01T10:00:00.123456789Z';
    expect(eventsV1View.validateUpdate(eventsV1View.decode(body).object, stored)).toEqual([]);
  });

  it('prints a duplicated cause once in the 422 message', () => {
    const err = invalid(
      eventInvalidKind,
      'ev1',
      eventsV1View.validateUpdate(edit({ reason: 'Other' }), stored),
    );
    expect(err.message).toBe('Event "ev1" is invalid: reason: Invalid value: "Other": field is immutable');
    expect(err.status.details?.causes).toHaveLength(2);
  });

  it('orders generic metadata, legacy, strict metadata, series and immutable errors as Go does', () => {
    const e = edit({ metadata: { name: 'a/b' }, reportingInstance: '', series: {}, type: 'Warning' });
    expect(strings(eventsV1View.validateUpdate(e, stored))).toEqual([
      'metadata.name: Invalid value: "a/b": may not contain \'/\'',
      immutable('metadata.name', '"a/b"'),
      'reportingInstance: Required value',
      immutable('metadata.name', '"a/b"'),
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
      immutable('type', '"Warning"'),
      immutable('reportingInstance', '""'),
    ]);
  });
});

describe('core/v1 update: legacy rules, everything but metadata mutable', () => {
  const old = makeEvent({
    metadata: meta,
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'p1' },
    reason: 'BackOff',
    message: 'Back-off restarting',
    source: { component: 'kubelet', host: 'n1' },
    firstTimestamp: '2024-05-01T10:00:00Z',
    lastTimestamp: '2024-05-01T10:00:00Z',
    count: 1,
    type: 'Warning',
  });
  const change = (patch: Partial<InternalEvent>): InternalEvent =>
    makeEvent({ ...old, ...patch, metadata: { ...old.metadata, ...patch.metadata } });

  it.each<[string, Partial<InternalEvent>, string[]]>([
    [
      'count, lastTimestamp and message, as the legacy recorder patches them',
      { count: 2, lastTimestamp: '2024-05-01T10:05:00Z', message: 'again' },
      [],
    ],
    [
      'involvedObject, reason, type and source',
      {
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'p2' },
        reason: 'X',
        type: 'Normal',
        source: {},
      },
      [],
    ],
    ['the name', { metadata: { name: 'other' } }, [immutable('metadata.name', '"other"')]],
    ['the uid', { metadata: { uid: 'u-2' } }, [immutable('metadata.uid', '"u-2"')]],
    [
      'a name with a slash',
      { metadata: { name: 'a/b' } },
      ['metadata.name: Invalid value: "a/b": may not contain \'/\'', immutable('metadata.name', '"a/b"')],
    ],
    [
      'eventTime without the new-style fields',
      { eventTime: '2024-05-01T10:00:00.000000Z' },
      [
        'reportingComponent: Required value',
        'reportingComponent: Invalid value: "": name part must be non-empty',
        "reportingComponent: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        'reportingInstance: Required value',
        'action: Required value',
      ],
    ],
    [
      'involvedObject namespace mismatch',
      { involvedObject: { kind: 'Pod', namespace: 'kube-system', name: 'p1' } },
      ['involvedObject.namespace: Invalid value: "kube-system": does not match event.namespace'],
    ],
  ])('%s', (_name, patch, want) => {
    expect(strings(coreV1EventView.validateUpdate(change(patch), old))).toEqual(want);
  });
});
