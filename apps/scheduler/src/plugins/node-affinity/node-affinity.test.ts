import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state.js';
import { makeNode, makeNodeInfo, makePod, type PodOptions } from '../../framework/testing/fixtures.js';
import { runFilter, runScore } from '../../framework/testing/run-plugin.js';
import { NodeAffinity, fits } from './node-affinity.js';

const zoneA = makeNode('a', { labels: { zone: 'a', disk: 'ssd' } });
const zoneB = makeNode('b', { labels: { zone: 'b' } });
const rejected = {
  code: 'UnschedulableAndUnresolvable',
  reasons: ["node(s) didn't match Pod's node affinity/selector"],
};

const requiredZone = (zone: string): PodOptions => ({
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: [zone] }] }],
    },
  },
});

describe('NodeAffinity.filter', () => {
  it.each<[string, PodOptions, unknown]>([
    ['no constraints', {}, undefined],
    ['nodeSelector matches', { nodeSelector: { zone: 'a' } }, undefined],
    ['nodeSelector does not match', { nodeSelector: { zone: 'b' } }, rejected],
    ['required affinity matches', requiredZone('a'), undefined],
    ['required affinity does not match', requiredZone('b'), rejected],
    ['both must hold', { ...requiredZone('a'), nodeSelector: { disk: 'hdd' } }, rejected],
  ])('%s', (_name, opts, want) => {
    expect(runFilter(new NodeAffinity(), makePod('p', opts), makeNodeInfo(zoneA))).toEqual(want);
  });

  it('works without its PreFilter', () => {
    const pl = new NodeAffinity();
    const s = pl.filter(new CycleState(), makePod('p', { nodeSelector: { zone: 'b' } }), makeNodeInfo(zoneA));
    expect(s?.message()).toBe("node(s) didn't match Pod's node affinity/selector");
  });

  it('exposes fits()', () => {
    expect([
      fits(makePod('p', requiredZone('b')), zoneA),
      fits(makePod('p', requiredZone('b')), zoneB),
    ]).toEqual([false, true]);
  });
});

describe('NodeAffinity.score', () => {
  const pod = makePod('p', {
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 2, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
        { weight: 6, preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] } },
        { weight: 4, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] } },
      ],
    },
  });

  it('normalizes the summed weights so the best node gets 100', () => {
    const c = makeNode('c', { labels: { zone: 'c' } });
    expect(
      runScore(
        new NodeAffinity(),
        pod,
        [zoneA, zoneB, c].map((n) => makeNodeInfo(n)),
      ),
    ).toEqual([100, 50, 0]);
  });

  it('skips pods without preferred terms', () => {
    expect(runScore(new NodeAffinity(), makePod('p'), [makeNodeInfo(zoneA)])).toBeUndefined();
  });
});
