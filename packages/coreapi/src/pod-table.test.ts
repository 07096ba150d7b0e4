import { describe, expect, it } from 'vitest';
import { podRowConditions, podTableColumns, podTableRow } from './pod-table.js';
import type { ContainerStatus, PodStatus } from './pod-types.js';
import { createdPod } from './testing/pods.js';

const now = new Date('2024-05-01T11:00:00Z');
const running = (name: string, extra: Partial<ContainerStatus> = {}): ContainerStatus => ({
  name,
  ready: true,
  restartCount: 0,
  state: { running: { startedAt: '2024-05-01T10:00:00Z' } },
  ...extra,
});

function row(status: PodStatus, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): unknown[] {
  const pod = createdPod(spec, metadata);
  pod.status = { ...pod.status, ...status };
  return podTableRow(pod, now);
}

describe('Pod table', () => {
  it('has the kubectl columns, the wide ones at priority 1', () => {
    expect(podTableColumns.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Ready', 0],
      ['Status', 0],
      ['Restarts', 0],
      ['Age', 0],
      ['IP', 1],
      ['Node', 1],
      ['Nominated Node', 1],
      ['Readiness Gates', 1],
    ]);
    expect(podTableColumns[0]?.format).toBe('name');
  });

  it.each<[string, PodStatus, Record<string, unknown>, Record<string, unknown>, unknown[]]>([
    ['a pending pod', {}, {}, {}, ['p1', '0/1', 'Pending', '0', '60m', '<none>', '<none>', '<none>', '<none>']],
    [
      'a running pod',
      { phase: 'Running', podIPs: [{ ip: '10.1.0.4' }], containerStatuses: [running('app')] },
      { nodeName: 'n1' },
      {},
      ['p1', '1/1', 'Running', '0', '60m', '10.1.0.4', 'n1', '<none>', '<none>'],
    ],
    [
      'a crash-looping container with restarts',
      {
        phase: 'Running',
        containerStatuses: [
          { name: 'app', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, finishedAt: '2024-05-01T10:55:00Z' } } },
        ],
      },
      {},
      {},
      ['p1', '0/1', 'CrashLoopBackOff', '3 (5m ago)', '60m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'a terminated container without a reason',
      { phase: 'Failed', containerStatuses: [{ name: 'app', state: { terminated: { exitCode: 2 } } }] },
      {},
      {},
      ['p1', '0/1', 'ExitCode:2', '0', '60m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'an init container still running',
      { phase: 'Pending', initContainerStatuses: [{ name: 'init', state: { running: {} } }] },
      { initContainers: [{ name: 'init', image: 'x' }] },
      {},
      ['p1', '0/1', 'Init:0/1', '0', '60m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'a gated pod',
      { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] },
      {},
      {},
      ['p1', '0/1', 'SchedulingGated', '0', '60m', '<none>', '<none>', '<none>', '<none>'],
    ],
    [
      'a pod being deleted',
      { phase: 'Running', nominatedNodeName: 'n2' },
      { readinessGates: [{ conditionType: 'example.com/ready' }] },
      { deletionTimestamp: '2024-05-01T10:59:00Z' },
      ['p1', '0/1', 'Terminating', '0', '60m', '<none>', '<none>', 'n2', '0/1'],
    ],
    [
      'a sidecar counts toward ready containers',
      { phase: 'Running', initContainerStatuses: [{ name: 'side', ready: true, started: true, state: { running: {} } }], containerStatuses: [running('app')] },
      { initContainers: [{ name: 'side', image: 'x', restartPolicy: 'Always' }] },
      {},
      ['p1', '2/2', 'Running', '0', '60m', '<none>', '<none>', '<none>', '<none>'],
    ],
  ])('%s', (_name, status, spec, metadata, cells) => {
    expect(row(status, spec, metadata)).toEqual(cells);
  });

  it.each<[string, number]>([
    ['Succeeded', 1],
    ['Failed', 1],
    ['Running', 0],
  ])('row conditions for %s', (phase, n) => {
    const pod = createdPod();
    pod.status = { phase };
    expect(podRowConditions(pod)).toHaveLength(n);
  });
});
