import { describe, expect, it } from 'vitest';
import { coreV1EventView, eventsV1View } from './views.js';
import type { InternalEvent } from './types.js';

describe('table (§10.4)', () => {
  it('has the ten Event columns with their priorities and formats', () => {
    expect(eventsV1View.tableColumns.map((c) => [c.name, c.type, c.format, c.priority])).toEqual([
      ['Last Seen', 'string', '', 0],
      ['Type', 'string', '', 0],
      ['Reason', 'string', '', 0],
      ['Object', 'string', '', 0],
      ['Subobject', 'string', '', 1],
      ['Source', 'string', '', 1],
      ['Message', 'string', '', 0],
      ['First Seen', 'string', '', 1],
      ['Count', 'string', '', 1],
      ['Name', 'string', 'name', 1],
    ]);
    expect(eventsV1View.tableColumns[0]?.description).toBe(
      'The time at which the most recent occurrence of this event was recorded.',
    );
    expect(coreV1EventView.tableColumns).toBe(eventsV1View.tableColumns);
  });

  const now = new Date('2024-05-03T13:05:00Z');

  it.each<[string, InternalEvent, unknown[]]>([
    [
      'a legacy event',
      {
        metadata: { name: 'p1.17c2' },
        involvedObject: { kind: 'Pod', name: 'p1', fieldPath: 'spec.containers{c}' },
        reason: 'BackOff',
        message: '  Back-off restarting\n',
        source: { component: 'kubelet', host: 'n1' },
        firstTimestamp: '2024-05-01T10:00:00Z',
        lastTimestamp: '2024-05-03T13:00:00Z',
        count: 7,
        type: 'Warning',
      },
      [
        '5m',
        'Warning',
        'BackOff',
        'pod/p1',
        'spec.containers{c}',
        'kubelet, n1',
        'Back-off restarting',
        '2d3h',
        7,
        'p1.17c2',
      ],
    ],
    [
      'a new-style singleton',
      {
        metadata: { name: 'p1.17c1' },
        involvedObject: { kind: 'Pod', name: 'p1' },
        reason: 'Scheduled',
        message: 'assigned',
        type: 'Normal',
        eventTime: '2024-05-03T13:04:30.999999Z',
        reportingComponent: 'default-scheduler',
        reportingInstance: 'sched-1',
      },
      [
        '29s',
        'Normal',
        'Scheduled',
        'pod/p1',
        '',
        'default-scheduler, sched-1',
        'assigned',
        '29s',
        1,
        'p1.17c1',
      ],
    ],
    [
      'a series',
      {
        metadata: { name: 'n1.1' },
        involvedObject: { kind: 'Node', name: 'n1' },
        eventTime: '2024-05-03T12:00:00.000000Z',
        series: { count: 12, lastObservedTime: '2024-05-03T13:03:00.000000Z' },
        source: { host: 'n1' },
        reportingComponent: 'node-controller',
      },
      ['2m', '', '', 'node/n1', '', 'node-controller, n1', '', '65m', 12, 'n1.1'],
    ],
    [
      'an event without any time',
      { metadata: {}, involvedObject: { kind: 'Namespace' }, source: { component: 'c' } },
      ['<unknown>', '', '', 'namespace', '', 'c', '', '<unknown>', 1, ''],
    ],
    [
      'a series without lastObservedTime',
      { metadata: {}, firstTimestamp: '2024-05-03T13:00:00Z', series: {} },
      ['<unknown>', '', '', '', '', '', '', '5m', 0, ''],
    ],
    [
      'a timestamp in the future',
      { metadata: {}, lastTimestamp: '2024-05-03T13:06:00Z' },
      ['<invalid>', '', '', '', '', '', '', '<unknown>', 1, ''],
    ],
  ])('renders %s', (_name, e, want) => {
    expect(eventsV1View.tableRow(e, now)).toEqual(want);
    expect(coreV1EventView.tableRow(e, now)).toEqual(want);
  });
});
