import { describe, expect, it } from 'vitest';
import { makeNode, makeNodeInfo, makePod, type NodeOptions } from '../../framework/testing/fixtures.js';
import { runFilter, runScore } from '../../framework/testing/run-plugin.js';
import type { Pod, ResourceList } from '../../framework/types.js';
import { create, type NodeResourcesFit } from './node-resources-fit.js';

const plugin = (args: Record<string, unknown> = {}) => create(args, { profileName: 'p' }) as NodeResourcesFit;
const req = (requests: ResourceList) => makePod(`p-${JSON.stringify(requests)}`, { requests });
const unschedulable = (...reasons: string[]) => ({ code: 'Unschedulable', reasons });

describe('NodeResourcesFit.filter', () => {
  const node = (o: NodeOptions = {}) => makeNode('n', { cpu: '4', memory: '8Gi', pods: '3', ...o });

  it.each<[string, Pod, Pod[], NodeOptions, unknown]>([
    ['fits an empty node', req({ cpu: '1', memory: '1Gi' }), [], {}, undefined],
    ['fits exactly', req({ cpu: '1' }), [req({ cpu: '3' })], {}, undefined],
    [
      'not enough cpu left',
      req({ cpu: '1500m' }),
      [req({ cpu: '3' })],
      {},
      unschedulable('Insufficient cpu'),
    ],
    ['not enough memory', req({ memory: '9Gi' }), [], {}, unschedulable('Insufficient memory')],
    [
      'both, in kube order',
      req({ cpu: '5', memory: '9Gi' }),
      [],
      {},
      unschedulable('Insufficient cpu', 'Insufficient memory'),
    ],
    [
      'a pod without requests fits a full node',
      makePod('be'),
      [req({ cpu: '4', memory: '8Gi' })],
      {},
      undefined,
    ],
    [
      'too many pods, whatever the requests',
      makePod('be'),
      [req({}), req({ cpu: '1' }), req({ cpu: '2' })],
      {},
      unschedulable('Too many pods'),
    ],
    [
      'too many pods comes first',
      req({ cpu: '2' }),
      [req({ cpu: '3' }), req({}), req({ memory: '1' })],
      {},
      unschedulable('Too many pods', 'Insufficient cpu'),
    ],
    [
      'an extended resource the node lacks',
      req({ 'nvidia.com/gpu': '1' }),
      [],
      {},
      unschedulable('Insufficient nvidia.com/gpu'),
    ],
    [
      'an extended resource it has',
      req({ 'nvidia.com/gpu': '2' }),
      [],
      { allocatable: { 'nvidia.com/gpu': '2' } },
      undefined,
    ],
    [
      'an extended resource in use',
      req({ 'nvidia.com/gpu': '1' }),
      [req({ 'nvidia.com/gpu': '2' })],
      { allocatable: { 'nvidia.com/gpu': '2' } },
      unschedulable('Insufficient nvidia.com/gpu'),
    ],
    [
      'ephemeral storage',
      req({ 'ephemeral-storage': '1Gi' }),
      [],
      {},
      unschedulable('Insufficient ephemeral-storage'),
    ],
    ['a node without allocatable pods', makePod('be'), [], { pods: '0' }, unschedulable('Too many pods')],
  ])('%s', (_name, pod, existing, nodeOpts, want) => {
    expect(runFilter(plugin(), pod, makeNodeInfo(node(nodeOpts), ...existing))).toEqual(want);
  });

  it('gives each node the reasons of its own shortage while rejections are shared', () => {
    const fit = plugin();
    // More distinct reason lists than the plugin keeps, then the first again.
    const pods = Array.from({ length: 70 }, (_, i) => req({ [`example.com/r${i}`]: '1' }));
    for (const [i, pod] of pods.entries())
      expect(runFilter(fit, pod, makeNodeInfo(node()))).toEqual(
        unschedulable(`Insufficient example.com/r${i}`),
      );
    expect(runFilter(fit, pods[0] as Pod, makeNodeInfo(node()))).toEqual(
      unschedulable('Insufficient example.com/r0'),
    );
    expect(runFilter(fit, req({ cpu: '5' }), makeNodeInfo(node()))).toEqual(
      unschedulable('Insufficient cpu'),
    );
    expect(runFilter(fit, req({ cpu: '5', memory: '9Gi' }), makeNodeInfo(node()))).toEqual(
      unschedulable('Insufficient cpu', 'Insufficient memory'),
    );
  });

  it.each([
    ['ignoredResources', { ignoredResources: ['example.com/foo'] }],
    ['ignoredResourceGroups', { ignoredResourceGroups: ['example.com'] }],
  ])('honours %s', (_name, args) => {
    const pod = req({ 'example.com/foo': '1' });
    expect(runFilter(plugin(args), pod, makeNodeInfo(node()))).toBeUndefined();
    expect(runFilter(plugin(), pod, makeNodeInfo(node()))).toEqual(
      unschedulable('Insufficient example.com/foo'),
    );
  });
});

describe('NodeResourcesFit.score', () => {
  const nodes = () => [
    makeNodeInfo(makeNode('empty', { cpu: '4', memory: '8Gi' })),
    makeNodeInfo(makeNode('busy', { cpu: '4', memory: '8Gi' }), req({ cpu: '2', memory: '2Gi' })),
    makeNodeInfo(makeNode('besteffort', { cpu: '4', memory: '8Gi' }), makePod('be')),
  ];

  it.each<[string, Record<string, unknown>, Pod, number[]]>([
    ['LeastAllocated (default)', {}, req({ cpu: '1', memory: '2Gi' }), [75, 37, 72]],
    ['LeastAllocated, pod without requests counts 100m / 200Mi', {}, makePod('be2'), [97, 59, 95]],
    [
      'MostAllocated',
      { scoringStrategy: { type: 'MostAllocated' } },
      req({ cpu: '1', memory: '2Gi' }),
      [25, 62, 27],
    ],
    [
      'weighted resources',
      {
        scoringStrategy: {
          resources: [
            { name: 'cpu', weight: 3 },
            { name: 'memory', weight: 1 },
          ],
        },
      },
      req({ cpu: '1', memory: '2Gi' }),
      [75, 31, 72],
    ],
  ])('%s', (_name, args, pod, want) => {
    expect(runScore(plugin(args), pod, nodes())).toEqual(want);
  });
});

describe('NodeResourcesFit args', () => {
  it.each([
    [
      { scoringStrategy: { type: 'RequestedToCapacityRatio' } },
      'invalid NodeResourcesFit args: scoringStrategy.type:',
    ],
    [
      { scoringStrategy: { resources: [{ name: 'cpu', weight: 0 }] } },
      'invalid NodeResourcesFit args: scoringStrategy.resources.0.weight:',
    ],
    [{ bogus: true }, 'invalid NodeResourcesFit args: (root):'],
  ])('refuses %j', (args, message) => {
    expect(() => plugin(args)).toThrow(message);
  });
});
