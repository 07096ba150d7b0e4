import { describe, expect, it } from 'vitest';
import { invalid } from '@keel/apimachinery';
import { eventInvalidKind, eventsV1View } from './views.js';
import { makeEvent } from './internal.js';
import { edit, newStyle, qnameRegex, rc, strings, subdomainRegex } from './testing/fixtures.js';
import type { InternalEvent } from './types.js';

describe('events.k8s.io/v1 create: legacy + strict rules (§1.2)', () => {
  it.each<[string, Partial<InternalEvent>, string[]]>([
    ['a valid event', {}, []],
    [
      'empty reportingController: Required plus two Invalid',
      { reportingComponent: '' },
      [
        'reportingController: Required value',
        'reportingController: Invalid value: "": name part must be non-empty',
        rc('reportingController', ''),
      ],
    ],
    [
      'a reportingController with bad characters',
      { reportingComponent: 'my controller' },
      [rc('reportingController', 'my controller')],
    ],
    ['a prefixed reportingController', { reportingComponent: 'k8s.io/kubelet' }, []],
    [
      'a reportingController with a bad prefix',
      { reportingComponent: 'Bad_Prefix/kubelet' },
      [`reportingController: Invalid value: "Bad_Prefix/kubelet": prefix part ${subdomainRegex}`],
    ],
    [
      'a 64-byte reportingController name',
      { reportingComponent: 'a'.repeat(64) },
      [
        `reportingController: Invalid value: "${'a'.repeat(64)}": name part must be no more than 63 characters`,
      ],
    ],
    ['empty reportingInstance', { reportingInstance: '' }, ['reportingInstance: Required value']],
    ['a 128-byte reportingInstance', { reportingInstance: 'i'.repeat(128) }, []],
    [
      'a 129-byte reportingInstance',
      { reportingInstance: 'i'.repeat(129) },
      ['reportingInstance: Invalid value: "": can have at most 128 characters'],
    ],
    [
      '65 two-byte characters of reportingInstance (130 bytes)',
      { reportingInstance: 'é'.repeat(65) },
      ['reportingInstance: Invalid value: "": can have at most 128 characters'],
    ],
    ['empty action', { action: '' }, ['action: Required value']],
    [
      'a 129-byte action',
      { action: 'a'.repeat(129) },
      ['action: Invalid value: "": can have at most 128 characters'],
    ],
    ['empty reason', { reason: '' }, ['reason: Required value']],
    [
      'a 129-byte reason',
      { reason: 'r'.repeat(129) },
      ['reason: Invalid value: "": can have at most 128 characters'],
    ],
    ['a 1024-byte note', { message: 'n'.repeat(1024) }, []],
    [
      'a 1025-byte note',
      { message: 'n'.repeat(1025) },
      ['message: Invalid value: "": can have at most 1024 characters'],
    ],
    [
      '513 two-byte characters of note (1026 bytes)',
      { message: 'ü'.repeat(513) },
      ['message: Invalid value: "": can have at most 1024 characters'],
    ],
    [
      'regarding in another namespace (no check when eventTime is set)',
      { involvedObject: { kind: 'Pod', namespace: 'other', name: 'p1' } },
      [],
    ],
    ['regarding without namespace in default', { involvedObject: { kind: 'Node', name: 'n1' } }, []],
    [
      'regarding without namespace in kube-system',
      { involvedObject: { kind: 'Node', name: 'n1' }, metadata: { namespace: 'kube-system' } },
      [],
    ],
    [
      'regarding without namespace elsewhere',
      { involvedObject: { kind: 'Node', name: 'n1' }, metadata: { namespace: 'team-a' } },
      ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
    ],
    ['no regarding at all in default', { involvedObject: {} }, []],
    ['type empty', { type: '' }, ['type: Invalid value: "": has invalid value: ']],
    ['type in the wrong case', { type: 'normal' }, ['type: Invalid value: "": has invalid value: normal']],
    ['type Warning', { type: 'Warning' }, []],
    [
      'deprecatedFirstTimestamp set',
      { firstTimestamp: '2024-05-01T10:00:00Z' },
      ['firstTimestamp: Invalid value: "": needs to be unset'],
    ],
    [
      'deprecatedLastTimestamp set',
      { lastTimestamp: '2024-05-01T10:00:00Z' },
      ['lastTimestamp: Invalid value: "": needs to be unset'],
    ],
    ['deprecatedCount set', { count: 2 }, ['count: Invalid value: "": needs to be unset']],
    [
      'deprecatedSource.component set',
      { source: { component: 'kubelet' } },
      ['source: Invalid value: "": needs to be unset'],
    ],
    [
      'deprecatedSource.host set',
      { source: { host: 'n1' } },
      ['source: Invalid value: "": needs to be unset'],
    ],
    [
      'an empty series',
      { series: {} },
      ['series.count: Invalid value: "": should be at least 2', 'series.lastObservedTime: Required value'],
    ],
    [
      'a series of one',
      { series: { count: 1, lastObservedTime: '2024-05-01T10:01:00.000000Z' } },
      ['series.count: Invalid value: "": should be at least 2'],
    ],
    ['a valid series', { series: { count: 2, lastObservedTime: '2024-05-01T10:01:00.000000Z' } }, []],
    [
      'no name',
      { metadata: { name: '' } },
      ['metadata.name: Required value: name or generateName is required'],
    ],
    [
      'a name that is no DNS subdomain',
      { metadata: { name: 'Bad_Name' } },
      [`metadata.name: Invalid value: "Bad_Name": ${subdomainRegex}`],
    ],
    [
      'a name with a slash (strategy error only)',
      { metadata: { name: 'a/b' } },
      [`metadata.name: Invalid value: "a/b": ${subdomainRegex}`],
    ],
    [
      'a generateName only',
      { metadata: { name: '', generateName: 'p1-' } },
      ['metadata.name: Required value: name or generateName is required'],
    ],
    [
      'a non-standard finalizer',
      { metadata: { finalizers: ['foo'] } },
      [
        'metadata.finalizers[0]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ],
    ['standard and qualified finalizers', { metadata: { finalizers: ['kubernetes', 'example.com/f'] } }, []],
    [
      'a bad label key',
      { metadata: { labels: { 'bad key': 'v' } } },
      [`metadata.labels: Invalid value: "bad key": ${qnameRegex}`],
    ],
    [
      'a bad namespace (legacy path `namespace`)',
      { metadata: { namespace: 'Team_A' }, involvedObject: { kind: 'Pod', namespace: 'Team_A', name: 'p' } },
      [
        `namespace: Invalid value: "Team_A": ${subdomainRegex}`,
        "metadata.namespace: Invalid value: \"Team_A\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
  ])('%s', (_name, patch, want) => {
    expect(strings(eventsV1View.validateCreate(edit(newStyle, patch)))).toEqual(want);
  });

  it('reports legacy namespace rules and eventTime for an event without eventTime', () => {
    const e = edit(newStyle, {
      eventTime: '',
      involvedObject: { kind: 'Pod', namespace: 'other', name: 'p1' },
    });
    expect(strings(eventsV1View.validateCreate(e))).toEqual([
      'involvedObject.namespace: Invalid value: "other": does not match event.namespace',
      'eventTime: Required value',
    ]);
  });

  it('lists every problem of an empty event in Go order', () => {
    const e = makeEvent({
      metadata: { name: 'ev1', namespace: 'default' },
      eventTime: '2024-05-01T10:00:00.000000Z',
    });
    expect(strings(eventsV1View.validateCreate(e))).toEqual([
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      rc('reportingController', ''),
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
      'type: Invalid value: "": has invalid value: ',
    ]);
  });

  it('builds the 422 Status of §1.3', () => {
    const e = edit(newStyle, { reportingInstance: '', action: '' });
    const err = invalid(eventInvalidKind, 'ev1', eventsV1View.validateCreate(e));
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Event "ev1" is invalid: [reportingInstance: Required value, action: Required value]',
      reason: 'Invalid',
      details: {
        name: 'ev1',
        kind: 'Event',
        causes: [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'reportingInstance' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'action' },
        ],
      },
      code: 422,
    });
  });
});
