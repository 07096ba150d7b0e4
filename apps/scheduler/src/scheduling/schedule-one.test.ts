import { describe, expect, it } from 'vitest';
import { SchedulerCache } from '../cache/cache.js';
import { Framework } from '../framework/framework.js';
import type { Plugin } from '../framework/interface.js';
import { Code, Status } from '../framework/status.js';
import { makeNode, makePod, makeProfile, type NodeOptions } from '../framework/testing/fixtures.js';
import type { Node } from '../framework/types.js';
import { newInTreeRegistry as defaultRegistry } from '../plugins/default-registry.js';
import { PodScheduler, numFeasibleNodesToFind, selectHost } from './schedule-one.js';
import { defaultFramework } from './testing/default-framework.js';

function cacheWith(...nodes: Node[]): SchedulerCache {
  const cache = new SchedulerCache();
  for (const n of nodes) cache.addNode(n);
  return cache;
}

const manyNodes = (n: number, o: (i: number) => NodeOptions = () => ({})) =>
  Array.from({ length: n }, (_, i) => makeNode(`n${String(i).padStart(4, '0')}`, o(i)));

const sched = (percentageOfNodesToScore = 0, random = () => 0.5) =>
  new PodScheduler({ percentageOfNodesToScore, random });

describe('numFeasibleNodesToFind', () => {
  it.each([
    [0, 0, 0],
    [0, 50, 50],
    [0, 99, 99],
    [0, 100, 100],
    [0, 1000, 420],
    [0, 5000, 500],
    [0, 6000, 300],
    [0, 100_000, 5000],
    [10, 1000, 100],
    [10, 500, 100],
    [50, 300, 150],
    [100, 5000, 5000],
    [5, 99, 99],
  ])('%d%% of %d nodes → %d', (pct, nodes, want) => {
    expect(numFeasibleNodesToFind(pct, nodes)).toBe(want);
  });
});

describe('PodScheduler.schedulePod', () => {
  const fwk = defaultFramework();

  it('reports a cluster without nodes', () => {
    const out = sched().schedulePod(fwk, new SchedulerCache().snapshot(), makePod('p'));
    expect(out.ok ? undefined : [out.status.code, out.message, out.unschedulablePlugins.size]).toEqual([
      Code.UnschedulableAndUnresolvable,
      'no nodes available to schedule pods',
      0,
    ]);
  });

  it("gives kube's FitError text when nothing fits", () => {
    const cache = cacheWith(
      makeNode('cp', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }),
      makeNode('w1', { cpu: '1' }),
      makeNode('w2', { cpu: '1', memory: '1Gi' }),
    );
    const out = sched().schedulePod(
      fwk,
      cache.snapshot(),
      makePod('big', { requests: { cpu: '2', memory: '2Gi' } }),
    );
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.status.code).toBe(Code.Unschedulable);
    expect(out.message).toBe(
      '0/3 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu.',
    );
    expect([...out.unschedulablePlugins].sort()).toEqual(['NodeResourcesFit', 'TaintToleration']);
    expect(out.fitError?.numAllNodes).toBe(3);
  });

  it('gives every node its status when all nodes are rejected for the same reasons', () => {
    const nodes = manyNodes(5, () => ({ cpu: '1' }));
    const cache = cacheWith(...nodes);
    const out = sched().schedulePod(fwk, cache.snapshot(), makePod('big', { requests: { cpu: '2' } }));
    if (out.ok || !out.fitError) throw new Error('expected a FitError');
    expect(out.message).toBe('0/5 nodes are available: 5 Insufficient cpu.');
    expect([...out.unschedulablePlugins]).toEqual(['NodeResourcesFit']);
    const m = out.fitError.diagnosis.nodeToStatus;
    expect(nodes.map((n) => [m.get(n.metadata.name).code, m.get(n.metadata.name).message()])).toEqual(
      nodes.map(() => [Code.Unschedulable, 'Insufficient cpu']),
    );
    const infos = cache.snapshot().nodeInfos;
    expect(m.nodesForStatusCode(infos, Code.Unschedulable)).toEqual(infos);
    expect(out.fitError.diagnosis.failedNodes).toBe(5);
    // One node failing differently: each node keeps its own status.
    cache.addNode(makeNode('tainted', { cpu: '1', taints: [{ key: 'k', effect: 'NoSchedule' }] }));
    const mixed = sched().schedulePod(fwk, cache.snapshot(), makePod('big', { requests: { cpu: '2' } }));
    if (mixed.ok || !mixed.fitError) throw new Error('expected a FitError');
    expect(mixed.message).toBe(
      '0/6 nodes are available: 1 node(s) had untolerated taint {k: }, 5 Insufficient cpu.',
    );
    const mm = mixed.fitError.diagnosis.nodeToStatus;
    expect(mm.get('tainted').code).toBe(Code.UnschedulableAndUnresolvable);
    expect(mm.nodesForStatusCode(cache.snapshot().nodeInfos, Code.Unschedulable)).toHaveLength(5);
  });

  it('names the first rejecting filter per node', () => {
    const cache = cacheWith(
      makeNode('cordoned', { unschedulable: true }),
      makeNode('ssd', { labels: { disk: 'ssd' }, cpu: '1' }),
      makeNode('hdd', { labels: { disk: 'hdd' } }),
    );
    cache.addPod(makePod('web', { nodeName: 'hdd', hostPorts: [{ hostPort: 80 }] }));
    const pod = makePod('p', { nodeSelector: { disk: 'ssd' }, requests: { cpu: '2' } });
    const out = sched().schedulePod(fwk, cache.snapshot(), pod);
    expect(out.ok ? '' : out.message).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) were unschedulable.",
    );
  });

  it('picks the least allocated feasible node', () => {
    const cache = cacheWith(
      makeNode('small', { cpu: '2' }),
      makeNode('large', { cpu: '16' }),
      makeNode('medium', { cpu: '4' }),
    );
    const out = sched().schedulePod(fwk, cache.snapshot(), makePod('p', { requests: { cpu: '1' } }));
    expect(out.ok && out.result).toEqual({ suggestedHost: 'large', evaluatedNodes: 3, feasibleNodes: 3 });
  });

  it('prefers nodes by weight: taints (3) over node affinity (2)', () => {
    const cache = cacheWith(
      makeNode('preferred-but-tainted', {
        labels: { zone: 'a' },
        taints: [{ key: 'soft', effect: 'PreferNoSchedule' }],
      }),
      makeNode('clean', { labels: { zone: 'b' } }),
    );
    const pod = makePod('p', {
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 1, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
        ],
      },
    });
    const out = sched().schedulePod(fwk, cache.snapshot(), pod);
    expect(out.ok && out.result.suggestedHost).toBe('clean');
  });

  it('takes the only feasible node', () => {
    const cache = cacheWith(
      makeNode('a', { cpu: '1' }),
      makeNode('b', { cpu: '8' }),
      makeNode('c', { cpu: '1' }),
    );
    const out = sched().schedulePod(fwk, cache.snapshot(), makePod('p', { requests: { cpu: '4' } }));
    expect(out.ok && out.result).toEqual({ suggestedHost: 'b', evaluatedNodes: 3, feasibleNodes: 1 });
  });

  it.each([
    ['always replacing', [0], 'n2'],
    ['never replacing', [0.99], 'n0'],
    ['replacing once', [0.4, 0.5], 'n1'],
  ])('breaks ties at random: %s', (_name, draws, want) => {
    let i = 0;
    const random = () => draws[Math.min(i++, draws.length - 1)] as number;
    const cache = cacheWith(makeNode('n0'), makeNode('n1'), makeNode('n2'));
    const out = sched(0, random).schedulePod(fwk, cache.snapshot(), makePod('p'));
    expect(out.ok && out.result.suggestedHost).toBe(want);
  });

  it('stops after enough feasible nodes and starts the next cycle where it stopped', () => {
    const cache = cacheWith(
      ...manyNodes(200, (i) => (i < 50 ? { taints: [{ key: 'x', effect: 'NoSchedule' }] } : {})),
    );
    const s = sched(50);
    const first = s.schedulePod(fwk, cache.snapshot(), makePod('a'));
    expect(first.ok && first.result).toMatchObject({ evaluatedNodes: 150, feasibleNodes: 100 });
    expect(s.nextStartNodeIndex).toBe(150);
    const second = s.schedulePod(fwk, cache.snapshot(), makePod('b'));
    expect(second.ok && second.result).toMatchObject({ evaluatedNodes: 150, feasibleNodes: 100 });
    expect(s.nextStartNodeIndex).toBe(100);
  });

  it("lets the profile's percentage win over the global one", () => {
    const profileFwk = Framework.fromProfile(
      makeProfile([{ name: 'PrioritySort' }, { name: 'NodeName' }], {}, { percentageOfNodesToScore: 100 }),
      defaultRegistry(),
    );
    const cache = cacheWith(...manyNodes(1000));
    const out = sched(10).schedulePod(profileFwk, cache.snapshot(), makePod('p'));
    expect(out.ok && out.result.feasibleNodes).toBe(1000);
    const global = sched(10).schedulePod(fwk, cache.snapshot(), makePod('p'));
    expect(global.ok && global.result.feasibleNodes).toBe(100);
  });

  it('takes nodes in turn when there are no filter or score plugins', () => {
    const bare = Framework.fromProfile(makeProfile([{ name: 'PrioritySort' }]), defaultRegistry());
    const cache = cacheWith(...manyNodes(300));
    const s = sched(50, () => 0.99);
    const out = s.schedulePod(bare, cache.snapshot(), makePod('p'));
    expect(out.ok && out.result).toEqual({ suggestedHost: 'n0000', evaluatedNodes: 150, feasibleNodes: 150 });
    expect(s.nextStartNodeIndex).toBe(150);
  });

  it('reports a PreFilter rejection in place of the per-node reasons', () => {
    const reject: Plugin = {
      name: 'Reject',
      preFilter: () => Status.unresolvable('pod is not welcome'),
    } as Plugin;
    const f = Framework.fromProfile(
      makeProfile([{ name: 'PrioritySort' }, { name: 'Reject' }]),
      defaultRegistry().register('Reject', () => reject),
    );
    const out = sched().schedulePod(f, cacheWith(makeNode('a'), makeNode('b')).snapshot(), makePod('p'));
    expect(out.ok ? undefined : [out.message, [...out.unschedulablePlugins]]).toEqual([
      '0/2 nodes are available: pod is not welcome.',
      ['Reject'],
    ]);
  });

  it('aborts the cycle on a filter error', () => {
    const broken: Plugin = { name: 'Broken', filter: () => Status.of(Code.Error, 'lost') } as Plugin;
    const f = Framework.fromProfile(
      makeProfile([{ name: 'PrioritySort' }, { name: 'Broken' }]),
      defaultRegistry().register('Broken', () => broken),
    );
    const out = sched().schedulePod(f, cacheWith(makeNode('a')).snapshot(), makePod('p'));
    expect(out.ok ? undefined : [out.status.code, out.message]).toEqual([
      Code.Error,
      'running "Broken" filter plugin: lost',
    ]);
  });

  it('sees pods assumed in earlier cycles', () => {
    const cache = cacheWith(makeNode('a', { cpu: '1' }), makeNode('b', { cpu: '1' }));
    const s = sched();
    const placed: string[] = [];
    for (const name of ['p1', 'p2', 'p3']) {
      const pod = makePod(name, { requests: { cpu: '600m' } });
      const out = s.schedulePod(fwk, cache.snapshot(), pod);
      if (!out.ok) {
        placed.push(out.message);
        continue;
      }
      cache.assumePod(pod, out.result.suggestedHost);
      placed.push(out.result.suggestedHost);
    }
    expect(placed.slice(0, 2).sort()).toEqual(['a', 'b']);
    expect(placed[2]).toBe('0/2 nodes are available: 2 Insufficient cpu.');
  });
});

describe('selectHost', () => {
  it('takes the highest total', () => {
    const cache = cacheWith(makeNode('a'), makeNode('b'), makeNode('c'));
    expect(selectHost(cache.snapshot().nodeInfos, [10, 30, 20], () => 0)).toBe('b');
  });
});
