/**
 * Preemption and nominated pods as InterPodAffinity and PodTopologySpread see them: their PreFilter
 * counts follow the victims removed in the dry run (RemovePod), the reprieved ones put back and
 * the nominated pods added (AddPod).
 */
import { describe, expect, it } from 'vitest';
import { makeNode, makePod, type PodOptions } from '../../framework/testing/fixtures.js';
import type { Pod, TopologySpreadConstraint } from '../../framework/types.js';
import { preemptionCluster } from './testing.js';

const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';

const withSpec = (pod: Pod, spec: Record<string, unknown>): Pod => ({
  ...pod,
  spec: { ...pod.spec, ...spec },
});

/** Required anti-affinity to pods labelled app=`app`, per `topologyKey`. */
const antiAffinity = (app: string, topologyKey = HOST) => ({
  affinity: {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { app } }, topologyKey },
      ],
    },
  },
});

const running = (name: string, node: string, priority: number, o: PodOptions = {}) =>
  makePod(name, { nodeName: node, requests: { cpu: '1' }, priority, ...o });

const names = (pods: readonly Pod[] | undefined) => (pods ?? []).map((p) => p.metadata.name);

describe('InterPodAffinity in preemption', () => {
  it.each<[string, number, { nominated?: string; victims?: string[]; code: string }]>([
    [
      'a lower-priority pod that alone violates the anti-affinity is preempted',
      10,
      {
        code: 'Success',
        nominated: 'n1',
        victims: ['x'],
      },
    ],
    ['a higher-priority one is not', 200, { code: 'Unschedulable' }],
  ])('%s', async (_name, priority, want) => {
    // n1 has room; only the app=x pod's presence keeps the incoming pod off it.
    const c = preemptionCluster(
      [makeNode('n1', { cpu: '4' })],
      [running('x', 'n1', priority, { labels: { app: 'x' } }), running('other', 'n1', 10)],
    );
    const pod = withSpec(makePod('p', { requests: { cpu: '1' }, priority: 100 }), antiAffinity('x'));
    const r = await c.attempt(pod);
    expect(r).toMatchObject({ code: want.code, ...(want.nominated ? { nominated: want.nominated } : {}) });
    if (want.victims) expect(names(c.preemption.plans[0]?.victims)).toEqual(want.victims);
    else expect(c.preemption.plans).toEqual([]);
  });

  it('preempts an existing lower-priority pod whose own anti-affinity rejects the incoming pod', async () => {
    const guard = withSpec(running('guard', 'n1', 10, { labels: { app: 'guard' } }), antiAffinity('web'));
    const c = preemptionCluster([makeNode('n1', { cpu: '4' })], [guard, running('other', 'n1', 10)]);
    const r = await c.attempt(
      makePod('p', { requests: { cpu: '1' }, priority: 100, labels: { app: 'web' } }),
    );
    expect(r).toMatchObject({ code: 'Success', nominated: 'n1' });
    expect(names(c.preemption.plans[0]?.victims)).toEqual(['guard']);
  });

  it('counts nominated pods of equal or higher priority against the anti-affinity, not lower ones', async () => {
    const pod = withSpec(makePod('p', { requests: { cpu: '1' }, priority: 100 }), antiAffinity('x'));
    const high = preemptionCluster([makeNode('n1', { cpu: '4' })], []);
    high.nominator.addNominatedPod(makePod('nominee', { labels: { app: 'x' }, priority: 100 }), 'n1');
    expect(await high.attempt(pod)).toMatchObject({ code: 'Unschedulable' });
    const low = preemptionCluster([makeNode('n1', { cpu: '4' })], []);
    low.nominator.addNominatedPod(makePod('nominee', { labels: { app: 'x' }, priority: 10 }), 'n1');
    expect(await low.attempt(pod)).toEqual({ host: 'n1' });
  });
});

describe('PodTopologySpread in preemption', () => {
  const spread: TopologySpreadConstraint = {
    maxSkew: 1,
    topologyKey: ZONE,
    whenUnsatisfiable: 'DoNotSchedule',
    labelSelector: { matchLabels: { app: 'web' } },
  };
  const nodes = [
    makeNode('n1', { cpu: '8', labels: { [ZONE]: 'a' } }),
    makeNode('n2', { cpu: '1', labels: { [ZONE]: 'b' } }),
  ];
  const web = (name: string, node: string, priority: number) =>
    running(name, node, priority, { labels: { app: 'web' } });
  const incoming = withSpec(makePod('p', { requests: { cpu: '1' }, priority: 100, labels: { app: 'web' } }), {
    topologySpreadConstraints: [spread],
  });

  it('preempts just enough matching pods for the skew to allow the pod', async () => {
    // Zone a has 2 web pods, zone b 1 on a full node: a is over the skew, b has no room and no
    // lower-priority pod. Removing one of a's web pods makes a's count 1, skew 1+1-1 = 1.
    const c = preemptionCluster(nodes, [web('w1', 'n1', 10), web('w2', 'n1', 10), web('w3', 'n2', 200)]);
    expect(await c.attempt(incoming)).toMatchObject({ code: 'Success', nominated: 'n1' });
    expect(c.preemption.plans[0]?.victims).toHaveLength(1);
  });

  it('does not preempt when the matching pods are of higher priority', async () => {
    const c = preemptionCluster(nodes, [
      web('w1', 'n1', 200),
      web('w2', 'n1', 200),
      web('w3', 'n2', 200),
      running('filler', 'n1', 10),
    ]);
    expect(await c.attempt(incoming)).toMatchObject({ code: 'Unschedulable' });
    expect(c.preemption.plans).toEqual([]);
  });

  it('counts a nominated matching pod in its domain', async () => {
    // Zones a and b hold one web pod each; a web pod nominated to n1 makes a's count 2. Without
    // it n1, the emptier node, would score higher.
    const c = preemptionCluster(
      [
        makeNode('n1', { cpu: '64', labels: { [ZONE]: 'a' } }),
        makeNode('n2', { cpu: '4', labels: { [ZONE]: 'b' } }),
      ],
      [web('w1', 'n1', 200), web('w2', 'n2', 200)],
    );
    c.nominator.addNominatedPod(makePod('nominee', { labels: { app: 'web' }, priority: 100 }), 'n1');
    expect(await c.attempt(incoming)).toEqual({ host: 'n2' });
  });
});
