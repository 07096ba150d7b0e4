import { describe, expect, it } from 'vitest';
import { makeNode, makeNodeInfo, makePod } from '../../framework/testing/fixtures.js';
import { runFilter, runScore } from '../../framework/testing/run-plugin.js';
import type { Taint, Toleration } from '../../framework/types.js';
import { TaintToleration } from './taint-toleration.js';

const controlPlane: Taint = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
const gpu: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
const soft = (key: string): Taint => ({ key, value: 'x', effect: 'PreferNoSchedule' });
const reject = (reason: string) => ({ code: 'UnschedulableAndUnresolvable', reasons: [reason] });

describe('TaintToleration.filter', () => {
  it.each<[string, Taint[], Toleration[], unknown]>([
    ['no taints', [], [], undefined],
    ['only PreferNoSchedule', [soft('a')], [], undefined],
    [
      'control plane, empty value',
      [controlPlane],
      [],
      reject('node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'),
    ],
    ['key with value', [gpu], [], reject('node(s) had untolerated taint {dedicated: gpu}')],
    [
      'NoExecute counts',
      [notReady],
      [],
      reject('node(s) had untolerated taint {node.kubernetes.io/not-ready: }'),
    ],
    ['tolerated by Equal', [gpu], [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], undefined],
    [
      'the first untolerated is named',
      [gpu, controlPlane],
      [{ key: 'dedicated', operator: 'Exists' }],
      reject('node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'),
    ],
    ['tolerate everything', [gpu, notReady], [{ operator: 'Exists' }], undefined],
  ])('%s', (_name, taints, tolerations, want) => {
    const pod = makePod('p', { tolerations });
    expect(runFilter(new TaintToleration(), pod, makeNodeInfo(makeNode('n', { taints })))).toEqual(want);
  });
});

describe('TaintToleration.score', () => {
  const nodes = () => [
    makeNodeInfo(makeNode('clean')),
    makeNodeInfo(makeNode('one', { taints: [soft('a')] })),
    makeNodeInfo(makeNode('two', { taints: [soft('a'), soft('b'), gpu] })),
  ];

  it.each<[string, Toleration[], number[]]>([
    ['fewer untolerated PreferNoSchedule taints score higher', [], [100, 50, 0]],
    [
      'a tolerated soft taint does not count',
      [{ key: 'a', operator: 'Exists', effect: 'PreferNoSchedule' }],
      [100, 100, 0],
    ],
    ['an effect-less toleration counts too', [{ key: 'b', operator: 'Exists' }], [100, 0, 0]],
    [
      'a NoSchedule toleration does not help',
      [{ key: 'a', operator: 'Exists', effect: 'NoSchedule' }],
      [100, 50, 0],
    ],
    ['all tolerated: all 100', [{ operator: 'Exists' }], [100, 100, 100]],
  ])('%s', (_name, tolerations, want) => {
    expect(runScore(new TaintToleration(), makePod('p', { tolerations }), nodes())).toEqual(want);
  });
});
