import { describe, expect, it } from 'vitest';
import { makeNode, makeNodeInfo, makePod } from '../../framework/testing/fixtures.js';
import { runFilter } from '../../framework/testing/run-plugin.js';
import type { Toleration } from '../../framework/types.js';
import { NodeUnschedulable } from './node-unschedulable.js';

const rejected = { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) were unschedulable'] };

describe('NodeUnschedulable.filter', () => {
  it.each<[string, boolean | undefined, Toleration[] | undefined, unknown]>([
    ['schedulable node', false, undefined, undefined],
    ['unset flag', undefined, undefined, undefined],
    ['cordoned node', true, undefined, rejected],
    [
      'cordoned, pod tolerates the taint',
      true,
      [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
      undefined,
    ],
    ['cordoned, pod tolerates everything', true, [{ operator: 'Exists' }], undefined],
    [
      'cordoned, toleration for NoExecute only',
      true,
      [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }],
      rejected,
    ],
  ])('%s', (_name, unschedulable, tolerations, want) => {
    const node = makeNode('n', unschedulable === undefined ? {} : { unschedulable });
    const pod = makePod('p', tolerations ? { tolerations } : {});
    expect(runFilter(new NodeUnschedulable(), pod, makeNodeInfo(node))).toEqual(want);
  });
});
