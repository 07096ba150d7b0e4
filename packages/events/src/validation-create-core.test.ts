import { describe, expect, it } from 'vitest';
import { coreV1EventView } from './views.js';
import { edit, newStyle, oldStyle, rc, strings } from './testing/fixtures.js';
import type { InternalEvent } from './types.js';

describe('core/v1 create: legacy rules only, path-segment names', () => {
  it.each<[string, Partial<InternalEvent>, string[]]>([
    ['a valid legacy event', {}, []],
    ['an event without any new-style field', { reason: '', message: '', type: '', source: {} }, []],
    ['a long message without eventTime has no limit', { message: 'm'.repeat(5000) }, []],
    [
      'involvedObject in another namespace',
      { involvedObject: { kind: 'Pod', namespace: 'other', name: 'p1' } },
      ['involvedObject.namespace: Invalid value: "other": does not match event.namespace'],
    ],
    ['cluster object event in default', { involvedObject: { kind: 'Node', name: 'n1' } }, []],
    [
      'cluster object event in kube-system',
      { involvedObject: { kind: 'Node', name: 'n1' }, metadata: { namespace: 'kube-system' } },
      ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
    ],
    [
      'eventTime set without reportingComponent',
      { eventTime: '2024-05-01T10:00:00.000000Z', action: 'A', reportingInstance: 'i' },
      [
        'reportingComponent: Required value',
        'reportingComponent: Invalid value: "": name part must be non-empty',
        rc('reportingComponent', ''),
      ],
    ],
    [
      'eventTime set and a 1025-byte message',
      {
        eventTime: '2024-05-01T10:00:00.000000Z',
        action: 'A',
        reportingInstance: 'i',
        reportingComponent: 'kubelet',
        message: 'm'.repeat(1025),
      },
      ['message: Invalid value: "": can have at most 1024 characters'],
    ],
    ['a name that is no DNS subdomain is fine', { metadata: { name: 'Bad_Name' } }, []],
    [
      'a name with a slash',
      { metadata: { name: 'a/b' } },
      ['metadata.name: Invalid value: "a/b": may not contain \'/\''],
    ],
    [
      'a name with a percent sign',
      { metadata: { name: 'a%b' } },
      ['metadata.name: Invalid value: "a%b": may not contain \'%\''],
    ],
    ['the name ..', { metadata: { name: '..' } }, ['metadata.name: Invalid value: "..": may not be \'..\'']],
    [
      'no name',
      { metadata: { name: '' } },
      ['metadata.name: Required value: name or generateName is required'],
    ],
    ['a non-standard finalizer is fine', { metadata: { finalizers: ['foo'] } }, []],
    ['type and deprecated fields are free', { type: 'Custom', count: 0 }, []],
  ])('%s', (_name, patch, want) => {
    expect(strings(coreV1EventView.validateCreate(edit(oldStyle, patch)))).toEqual(want);
  });

  it('runs the generic name check only after the strategy passed', () => {
    const e = edit(oldStyle, {
      metadata: { name: 'a/b' },
      involvedObject: { kind: 'Pod', namespace: 'x', name: 'p1' },
    });
    expect(strings(coreV1EventView.validateCreate(e))).toEqual([
      'involvedObject.namespace: Invalid value: "x": does not match event.namespace',
    ]);
  });

  it('accepts a new-style event', () => {
    expect(coreV1EventView.validateCreate(newStyle)).toEqual([]);
  });
});
