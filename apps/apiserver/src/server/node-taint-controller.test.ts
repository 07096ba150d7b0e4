import { describe, expect, it } from 'vitest';
import { desiredTaints } from './node-taint-controller.js';

const node = (conditions: [string, string][], spec: Record<string, unknown> = {}) => ({
  metadata: { name: 'n1' },
  spec,
  status: { conditions: conditions.map(([type, status]) => ({ type, status })) },
});
const notReady = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

describe('desiredTaints (the node lifecycle controller NoSchedule pass)', () => {
  it('lifts not-ready once the node is Ready, keeping taints it does not manage', () => {
    const own = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
    expect(desiredTaints(node([['Ready', 'True']], { taints: [notReady, own] }))).toEqual([own]);
    expect(desiredTaints(node([], { taints: [notReady] }))).toEqual([]);
  });

  it('taints by condition and unschedulable, and leaves right taints alone', () => {
    expect(desiredTaints(node([['Ready', 'False']], { taints: [notReady] }))).toBeUndefined();
    expect(
      desiredTaints(
        node([
          ['Ready', 'Unknown'],
          ['DiskPressure', 'True'],
        ]),
      ),
    ).toEqual([
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' },
    ]);
    expect(desiredTaints(node([['Ready', 'True']], { unschedulable: true }))).toEqual([
      { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
    ]);
    // A NoExecute taint of the same key is the eviction half's, not this pass's.
    const noExecute = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
    expect(desiredTaints(node([['Ready', 'True']], { taints: [noExecute] }))).toBeUndefined();
  });
});
