import { describe, expect, it } from 'vitest';
import { makeNode, makeNodeInfo, makePod } from '../../framework/testing/fixtures.js';
import { runScore } from '../../framework/testing/run-plugin.js';
import type { Pod, ResourceList } from '../../framework/types.js';
import { balancedAllocationScore } from '../node-resources-fit/resource-allocation.js';
import { create, type NodeResourcesBalancedAllocation } from './node-resources-balanced-allocation.js';

const plugin = (args: Record<string, unknown> = {}) =>
  create(args, { profileName: 'p' }) as NodeResourcesBalancedAllocation;
const req = (requests: ResourceList) => makePod(`p-${JSON.stringify(requests)}`, { requests });

describe('NodeResourcesBalancedAllocation.score', () => {
  const nodes = () => [
    makeNodeInfo(makeNode('empty', { cpu: '4', memory: '8Gi' })),
    makeNodeInfo(makeNode('cpu-heavy', { cpu: '4', memory: '8Gi' }), req({ cpu: '2', memory: '2Gi' })),
    makeNodeInfo(makeNode('besteffort', { cpu: '4', memory: '8Gi' }), makePod('be')),
  ];

  it.each<[string, Pod, number[] | undefined]>([
    ['balanced request', req({ cpu: '1', memory: '2Gi' }), [100, 87, 100]],
    ['cpu only', req({ cpu: '1' }), [87, 75, 87]],
    ['best-effort pods are skipped', makePod('be2'), undefined],
  ])('%s', (_name, pod, want) => {
    expect(runScore(plugin(), pod, nodes())).toEqual(want);
  });

  it('balances extended resources when configured', () => {
    const pl = plugin({ resources: [{ name: 'cpu' }, { name: 'memory' }, { name: 'example.com/gpu' }] });
    const node = makeNodeInfo(
      makeNode('g', { cpu: '4', memory: '8Gi', allocatable: { 'example.com/gpu': '4' } }),
    );
    expect(runScore(pl, req({ cpu: '1', memory: '2Gi', 'example.com/gpu': '4' }), [node])).toEqual([64]);
  });

  it('refuses unknown args', () => {
    expect(() => plugin({ scoringStrategy: {} })).toThrow('invalid NodeResourcesBalancedAllocation args');
  });
});

describe('balancedAllocationScore', () => {
  it.each([
    [[1, 1], [4, 4], 100],
    [[3, 2], [4, 4], 87],
    [[8, 0], [4, 4], 50],
    [[1, 1, 4], [4, 4, 4], 64],
    [[2, 0], [4, 0], 100],
  ])('%j of %j → %d', (requested, allocatable, want) => {
    expect(balancedAllocationScore(requested, allocatable)).toBe(want);
  });
});
