import { describe, expect, it } from 'vitest';
import { makeNode, makePod, type PodOptions } from '../../framework/testing/fixtures.js';
import type { Pod } from '../../framework/types.js';
import { DefaultPreemption } from './default-preemption.js';
import { pickOneNodeForPreemption, type Candidate } from './pick-node.js';
import { preemptionCluster } from './testing.js';

/** An assigned pod asking for `cpu` at `priority`. */
const running = (name: string, node: string, cpu: string, priority: number, o: PodOptions = {}) =>
  makePod(name, { nodeName: node, requests: { cpu }, priority, ...o });
const incoming = (cpu: string, priority: number) => makePod('p', { requests: { cpu }, priority });
const withStatus = (pod: Pod, status: Record<string, unknown>): Pod => ({
  ...pod,
  status: { ...pod.status, ...status },
});
const names = (pods: readonly Pod[]) => pods.map((p) => p.metadata.name);

describe('DefaultPreemption: which node and which victims', () => {
  it.each<[string, Pod[], string, string, string[]]>([
    [
      'the node whose highest victim has the lowest priority',
      [running('a', 'n1', '4', 50), running('b', 'n2', '4', 10)],
      '2',
      'n2',
      ['b'],
    ],
    [
      'with equal highest priority, the smallest sum of priorities',
      [
        running('a1', 'n1', '2', 10),
        running('a2', 'n1', '2', 10),
        running('b1', 'n2', '2', 10),
        running('b2', 'n2', '2', 5),
      ],
      '4',
      'n2',
      ['b1', 'b2'],
    ],
    [
      'victims only as many as needed: the most important are reprieved first',
      [
        running('a', 'n1', '1', 50),
        running('b', 'n1', '1', 10),
        running('c', 'n1', '2', 5),
        running('peer', 'n2', '4', 100),
      ],
      '2',
      'n1',
      ['c'],
    ],
    [
      'of two pods either of which frees enough, the less important goes',
      [running('big', 'n1', '2', 5), running('small', 'n1', '2', 40), running('peer', 'n2', '4', 100)],
      '2',
      'n1',
      ['big'],
    ],
  ])('%s', async (_name, pods, cpu, node, victims) => {
    const c = preemptionCluster([makeNode('n1', { cpu: '4' }), makeNode('n2', { cpu: '4' })], pods);
    const r = await c.attempt(incoming(cpu, 100));
    expect(r).toMatchObject({ code: 'Success', nominated: node });
    expect(c.preemption.plans).toHaveLength(1);
    expect(c.preemption.plans[0]?.nodeName).toBe(node);
    expect(names(c.preemption.plans[0]?.victims ?? [])).toEqual(victims);
  });

  it('prefers the victims that started last when all else ties', async () => {
    const c = preemptionCluster(
      [makeNode('n1', { cpu: '4' }), makeNode('n2', { cpu: '4' })],
      [
        withStatus(running('old', 'n1', '4', 10), { startTime: '2026-01-01T10:00:00Z' }),
        withStatus(running('new', 'n2', '4', 10), { startTime: '2026-01-01T11:00:00Z' }),
      ],
    );
    expect(await c.attempt(incoming('2', 100))).toMatchObject({ code: 'Success', nominated: 'n2' });
  });

  it('does not preempt pods of equal or higher priority', async () => {
    const c = preemptionCluster(
      [makeNode('n1', { cpu: '4' }), makeNode('n2', { cpu: '4' })],
      [running('same', 'n1', '4', 100), running('higher', 'n2', '4', 200)],
    );
    expect(await c.attempt(incoming('2', 100))).toMatchObject({
      code: 'Unschedulable',
      nominated: '',
      message:
        '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod..',
    });
    expect(c.preemption.plans).toEqual([]);
  });

  it('reports the filters that still fail with every lower-priority pod gone', async () => {
    const c = preemptionCluster([makeNode('n1', { cpu: '1' })], [running('low', 'n1', '1', 0)]);
    expect(await c.attempt(incoming('2', 100))).toMatchObject({
      code: 'Unschedulable',
      message:
        '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Insufficient cpu..',
    });
  });

  it('leaves nodes rejected as UnschedulableAndUnresolvable out', async () => {
    const c = preemptionCluster(
      [
        makeNode('n1', { cpu: '4', labels: { disk: 'hdd' } }),
        makeNode('n2', { cpu: '4', labels: { disk: 'ssd' } }),
      ],
      [running('low', 'n1', '4', 0), running('peer', 'n2', '4', 100)],
    );
    const pod = makePod('p', { requests: { cpu: '2' }, priority: 100, nodeSelector: { disk: 'ssd' } });
    expect(await c.attempt(pod)).toMatchObject({
      code: 'Unschedulable',
      message:
        "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling..",
    });
  });

  it('does nothing for a pod with preemptionPolicy Never', async () => {
    const c = preemptionCluster([makeNode('n1', { cpu: '4' })], [running('low', 'n1', '4', 0)]);
    const base = incoming('2', 100);
    const pod: Pod = { ...base, spec: { ...base.spec, preemptionPolicy: 'Never' } };
    const r = await c.attempt(pod);
    expect(r).toMatchObject({
      code: 'Unschedulable',
      message:
        '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never..',
    });
    // No result: the pod's nominated node (if any) is left as it is.
    expect(r).toMatchObject({ nominated: undefined });
    expect(c.preemption.plans).toEqual([]);
  });

  it('waits while victims of its earlier preemption are terminating on its nominated node', async () => {
    const terminating = withStatus(
      running('victim', 'n1', '4', 0, { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      { conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }] },
    );
    const c = preemptionCluster(
      [makeNode('n1', { cpu: '4' }), makeNode('n2', { cpu: '4' })],
      [terminating, running('other', 'n2', '4', 0)],
    );
    const pod = withStatus(incoming('2', 100), { nominatedNodeName: 'n1' });
    expect(await c.attempt(pod)).toMatchObject({
      code: 'Unschedulable',
      message:
        '0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to a terminating pod on the nominated node..',
    });
    // A pod merely being deleted (not by preemption) does not hold it back.
    const plain = preemptionCluster(
      [makeNode('n1', { cpu: '4' })],
      [running('leaving', 'n1', '4', 0, { deletionTimestamp: '2026-01-01T00:00:00Z' })],
    );
    expect(await plain.attempt(pod)).toMatchObject({ code: 'Success', nominated: 'n1' });
  });

  it('clears lower-priority nominations on the chosen node, not higher ones', async () => {
    const c = preemptionCluster([makeNode('n1', { cpu: '4' })], [running('low', 'n1', '4', 0)]);
    const lower = makePod('lower', { requests: { cpu: '1' }, priority: 50 });
    const higher = makePod('higher', { requests: { cpu: '1' }, priority: 500 });
    c.nominator.addNominatedPod(lower, 'n1');
    c.nominator.addNominatedPod(higher, 'n1');
    expect(await c.attempt(incoming('2', 100))).toMatchObject({ code: 'Success', nominated: 'n1' });
    expect(names(c.preemption.plans[0]?.nominatedToClear ?? [])).toEqual(['lower']);
  });
});

describe('DefaultPreemption and PodDisruptionBudgets', () => {
  const pdb = (allowed: number, app: string, disruptedPods?: Record<string, string>) => ({
    metadata: { name: `pdb-${app}`, namespace: 'default' },
    spec: { selector: { matchLabels: { app } } },
    status: { disruptionsAllowed: allowed, ...(disruptedPods ? { disruptedPods } : {}) },
  });

  it('prefers a node whose victims violate no budget over lower-priority victims', async () => {
    const pods = [
      running('guarded', 'n1', '4', 0, { labels: { app: 'db' } }),
      running('free', 'n2', '4', 50, { labels: { app: 'web' } }),
    ];
    const nodes = [makeNode('n1', { cpu: '4' }), makeNode('n2', { cpu: '4' })];
    const c = preemptionCluster(nodes, pods, { pdbs: [pdb(0, 'db')] });
    expect(await c.attempt(incoming('2', 100))).toMatchObject({ code: 'Success', nominated: 'n2' });
    // With a disruption allowed, the lower-priority victim wins again.
    const ok = preemptionCluster(nodes, pods, { pdbs: [pdb(1, 'db')] });
    expect(await ok.attempt(incoming('2', 100))).toMatchObject({ code: 'Success', nominated: 'n1' });
    // A pod the budget already counts as disrupted does not use it up.
    const counted = preemptionCluster(nodes, pods, { pdbs: [pdb(0, 'db', { guarded: 'x' })] });
    expect(await counted.attempt(incoming('2', 100))).toMatchObject({ code: 'Success', nominated: 'n1' });
  });

  it('reprieves budget-violating pods first', async () => {
    const pods = [
      running('guarded', 'n1', '2', 10, { labels: { app: 'db' } }),
      running('important', 'n1', '2', 50),
    ];
    const nodes = [makeNode('n1', { cpu: '4' })];
    const c = preemptionCluster(nodes, pods, { pdbs: [pdb(0, 'db')] });
    await c.attempt(incoming('2', 100));
    expect(names(c.preemption.plans[0]?.victims ?? [])).toEqual(['important']);
    const without = preemptionCluster(nodes, pods);
    await without.attempt(incoming('2', 100));
    expect(names(without.preemption.plans[0]?.victims ?? [])).toEqual(['guarded']);
  });

  it('uses a violating node when no other helps, and counts the violations', async () => {
    const c = preemptionCluster(
      [makeNode('n1', { cpu: '4' }), makeNode('n2', { cpu: '4' })],
      [
        running('g1', 'n1', '4', 0, { labels: { app: 'db' } }),
        running('g2', 'n2', '2', 0, { labels: { app: 'db' } }),
        running('g3', 'n2', '2', 0, { labels: { app: 'db' } }),
      ],
      { pdbs: [pdb(0, 'db')] },
    );
    expect(await c.attempt(incoming('2', 100))).toMatchObject({ code: 'Success' });
    // Both nodes need one victim, each violating the budget: the tie goes to the first found.
    expect(c.preemption.plans[0]?.victims).toHaveLength(1);
  });
});

describe('DefaultPreemption args', () => {
  it('stops the dry run once minCandidateNodes candidates are found', async () => {
    const nodes = [makeNode('n1', { cpu: '4' }), makeNode('n2', { cpu: '4' })];
    const pods = [running('a', 'n1', '4', 50), running('b', 'n2', '4', 10)];
    const c = preemptionCluster(nodes, pods);
    const r = await c.attempt(incoming('2', 100));
    if (!('state' in r) || !r.state || !r.nodeToStatus) throw new Error('expected a FitError');
    const state = r.state;
    const nodeToStatus = r.nodeToStatus;
    const run = async (args: { minCandidateNodesPercentage: number; minCandidateNodesAbsolute: number }) =>
      (
        await new DefaultPreemption(args, {}, { random: () => 0 }).postFilter(
          state,
          incoming('2', 100),
          nodeToStatus,
          c.fwk,
        )
      ).result?.nominatedNodeName;
    // Both nodes are dry-run and the better one wins; with one candidate wanted, the first found.
    expect(await run({ minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 })).toBe('n2');
    expect(await run({ minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 1 })).toBe('n1');
    expect(await run({ minCandidateNodesPercentage: 50, minCandidateNodesAbsolute: 0 })).toBe('n1');
  });

  it('refuses invalid args when the profile is built', async () => {
    expect(() =>
      preemptionCluster([], [], { args: { minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0 } }),
    ).toThrow(/cannot be zero at the same time as minCandidateNodesAbsolute/);
  });
});

describe('DefaultPreemption in the profile', () => {
  const nodes = [makeNode('n1', { cpu: '4' })];
  const pods = [running('low', 'n1', '4', 0)];
  it('is in the default profile, and off when the configuration disables it', async () => {
    expect(preemptionCluster(nodes, pods).fwk.postFilterPlugins.map((p) => p.name)).toEqual([
      'DefaultPreemption',
    ]);
    for (const plugins of [
      { postFilter: { disabled: [{ name: 'DefaultPreemption' }] } },
      { multiPoint: { disabled: [{ name: 'DefaultPreemption' }] } },
    ]) {
      const c = preemptionCluster(nodes, pods, { profile: [{ plugins }] });
      expect(c.fwk.postFilterPlugins).toEqual([]);
      expect(await c.attempt(incoming('2', 100))).toEqual({
        error: '0/1 nodes are available: 1 Insufficient cpu.',
      });
      expect(c.preemption.plans).toEqual([]);
    }
  });
});

describe('nominated pods', () => {
  it('reserve their room against pods of lower or equal priority only', async () => {
    const c = preemptionCluster([makeNode('n1', { cpu: '4' })], []);
    c.nominator.addNominatedPod(makePod('nominee', { requests: { cpu: '3' }, priority: 100 }), 'n1');
    expect(await c.attempt(makePod('lower', { requests: { cpu: '2' }, priority: 10 }))).toMatchObject({
      code: 'Unschedulable',
      message:
        '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..',
    });
    expect(await c.attempt(makePod('equal', { requests: { cpu: '2' }, priority: 100 }))).toMatchObject({
      code: 'Unschedulable',
    });
    expect(await c.attempt(makePod('higher', { requests: { cpu: '2' }, priority: 200 }))).toEqual({
      host: 'n1',
    });
    expect(await c.attempt(makePod('small', { requests: { cpu: '1' }, priority: 10 }))).toEqual({
      host: 'n1',
    });
  });

  it('keep their room in the dry run: more victims go, and the node is left as it was', async () => {
    const pods = [running('a', 'n1', '1', 5), running('b', 'n1', '2', 1), running('peer', 'n2', '4', 200)];
    const nodes = [makeNode('n1', { cpu: '4' }), makeNode('n2', { cpu: '4' })];
    const plain = preemptionCluster(nodes, pods);
    expect(await plain.attempt(incoming('2', 100))).toMatchObject({ code: 'Success', nominated: 'n1' });
    expect(names(plain.preemption.plans[0]?.victims ?? [])).toEqual(['b']);

    const c = preemptionCluster(nodes, pods);
    c.nominator.addNominatedPod(makePod('nominee', { requests: { cpu: '2' }, priority: 100 }), 'n1');
    expect(await c.attempt(incoming('2', 100))).toMatchObject({ code: 'Success', nominated: 'n1' });
    expect(names(c.preemption.plans[0]?.victims ?? [])).toEqual(['a', 'b']);
    const n1 = c.cache.snapshot().get('n1');
    expect([...(n1?.pods.keys() ?? [])]).toEqual(['uid-a', 'uid-b']);
    expect(n1?.requested.milliCPU).toBe(3000);
  });

  it('lets a preemptor try its nominated node first', async () => {
    const c = preemptionCluster([makeNode('n1', { cpu: '4' }), makeNode('n2', { cpu: '8' })], []);
    const pod = withStatus(incoming('2', 100), { nominatedNodeName: 'n1' });
    // n2 would score better (less allocated), but the nominated node fits and is taken.
    expect(await c.attempt(pod)).toEqual({ host: 'n1' });
  });
});

describe('pickOneNodeForPreemption', () => {
  const victim = (priority: number, startTime?: string) =>
    withStatus(makePod(`v${priority}`, { priority }), startTime ? { startTime } : {});
  const cand = (nodeName: string, victims: Pod[], numPDBViolations = 0): Candidate => ({
    nodeName,
    victims,
    numPDBViolations,
  });
  it.each<[string, Candidate[], string | undefined]>([
    ['none', [], undefined],
    ['fewest PDB violations first', [cand('a', [victim(0)], 1), cand('b', [victim(90)], 0)], 'b'],
    ['then the lowest highest priority', [cand('a', [victim(20)]), cand('b', [victim(10), victim(5)])], 'b'],
    [
      'negative priorities: more pods still cost more',
      [cand('a', [victim(-5), victim(-5)]), cand('b', [victim(-5)])],
      'b',
    ],
    [
      'then the latest start of the highest-priority victims',
      [cand('a', [victim(5, '2026-01-01T01:00:00Z')]), cand('b', [victim(5, '2026-01-01T02:00:00Z')])],
      'b',
    ],
    [
      'then the fewest victims (sums equal only at extreme priorities)',
      [cand('a', [victim(10), victim(-(2 ** 31))]), cand('b', [victim(10)])],
      'b',
    ],
    ['then the first', [cand('a', [victim(5)]), cand('b', [victim(5)])], 'a'],
  ])('%s', (_name, candidates, want) => {
    expect(pickOneNodeForPreemption(candidates, Date.parse('2026-06-01T00:00:00Z'))?.nodeName).toBe(want);
  });
});
