import { describe, expect, it } from 'vitest';
import { filterAll, labelledNode, makeSnapshot, scoreAll } from '../../framework/testing/cluster.js';
import { NO_CLUSTER_OBJECTS, type ClusterObjects } from '../../framework/interface.js';
import type { Node, Pod, TopologySpreadConstraint } from '../../framework/types.js';
import { LABEL_TOPOLOGY_ZONE, parsePodTopologySpreadArgs, SYSTEM_DEFAULT_CONSTRAINTS } from './args.js';
import { PodTopologySpread } from './pod-topology-spread.js';

// Cases mirror kube's podtopologyspread filtering_test.go (TestSingleConstraint,
// TestMultipleConstraints) and scoring_test.go tables.

const HOST = 'kubernetes.io/hostname';
const node = (
  name: string,
  zone?: string,
  more: Partial<Node['spec']> & { labels?: Record<string, string> } = {},
) => {
  const n = labelledNode(name, { [HOST]: name, ...(zone ? { zone } : {}), ...more.labels });
  return more.taints ? { ...n, spec: { taints: more.taints } } : n;
};

let seq = 0;
interface PodIn {
  readonly node?: string;
  readonly ns?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly spread?: readonly TopologySpreadConstraint[];
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly terminating?: boolean;
  readonly tolerations?: readonly { key: string; operator: string; effect: string }[];
}
function pod(p: PodIn = {}): Pod {
  const name = `p${seq++}`;
  return {
    metadata: {
      name,
      uid: name,
      namespace: p.ns ?? 'default',
      labels: p.labels ?? { foo: '' },
      ...(p.terminating ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      containers: [{ name: 'c' }],
      ...(p.node ? { nodeName: p.node } : {}),
      ...(p.spread ? { topologySpreadConstraints: p.spread } : {}),
      ...(p.nodeSelector ? { nodeSelector: p.nodeSelector } : {}),
      ...(p.tolerations ? { tolerations: p.tolerations } : {}),
    },
  };
}
const on = (nodeName: string, count = 1, extra: PodIn = {}) =>
  Array.from({ length: count }, () => pod({ node: nodeName, ...extra }));

const fooExists = { matchExpressions: [{ key: 'foo', operator: 'Exists' }] };
const spread = (
  topologyKey: string,
  maxSkew: number,
  more: Partial<TopologySpreadConstraint> = {},
): TopologySpreadConstraint => ({
  maxSkew,
  topologyKey,
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: fooExists,
  ...more,
});

const plugin = (args: Record<string, unknown> = {}, objects: ClusterObjects = NO_CLUSTER_OBJECTS) =>
  new PodTopologySpread(parsePodTopologySpreadArgs(args), objects);

const OK = undefined;
const SKEW = { code: 'Unschedulable', reasons: ["node(s) didn't match pod topology spread constraints"] };
const LABEL = {
  code: 'UnschedulableAndUnresolvable',
  reasons: ["node(s) didn't match pod topology spread constraints (missing required label)"],
};

const taintedB = [
  node('node-a', 'zone1'),
  node('node-b', 'zone1', { taints: [{ key: 'x', effect: 'NoSchedule' }] }),
  node('node-c', 'zone1'),
];
const fourNodes = [
  node('node-a', 'zone1'),
  node('node-b', 'zone1'),
  node('node-x', 'zone2'),
  node('node-y', 'zone2'),
];

describe('PodTopologySpread.filter', () => {
  it.each<[string, Pod, Node[], Pod[], Record<string, unknown>]>([
    [
      'no existing pods',
      pod({ spread: [spread('zone', 1)] }),
      fourNodes,
      [],
      { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    ],
    [
      'existing pods in another namespace do not count',
      pod({ spread: [spread('zone', 1)] }),
      fourNodes,
      [...on('node-a', 1, { ns: 'ns1' }), ...on('node-x', 2, { ns: 'ns2' })],
      { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    ],
    [
      'pods spread across zones as 3/3: all nodes fit',
      pod({ spread: [spread('zone', 1)] }),
      fourNodes,
      [...on('node-a', 2), ...on('node-b'), ...on('node-y', 3)],
      { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    ],
    [
      "pods spread 1/2 as node-b has no 'zone' label",
      pod({ spread: [spread('zone', 1)] }),
      [node('node-a', 'zone1'), node('node-b'), node('node-x', 'zone2'), node('node-y', 'zone2')],
      [...on('node-a'), ...on('node-b'), ...on('node-x'), ...on('node-y')],
      { 'node-a': OK, 'node-b': LABEL, 'node-x': SKEW, 'node-y': SKEW },
    ],
    [
      "no node has the 'rack' label",
      pod({ spread: [spread('rack', 1)] }),
      fourNodes,
      [],
      { 'node-a': LABEL, 'node-b': LABEL, 'node-x': LABEL, 'node-y': LABEL },
    ],
    [
      'pods spread across nodes as 2/1/0/3: only node-x fits',
      pod({ spread: [spread(HOST, 1)] }),
      fourNodes,
      [...on('node-a', 2), ...on('node-b'), ...on('node-y', 3)],
      { 'node-a': SKEW, 'node-b': SKEW, 'node-x': OK, 'node-y': SKEW },
    ],
    [
      'pods spread across nodes as 2/1/0/3, maxSkew 2: node-b and node-x fit',
      pod({ spread: [spread(HOST, 2)] }),
      fourNodes,
      [...on('node-a', 2), ...on('node-b'), ...on('node-y', 3)],
      { 'node-a': SKEW, 'node-b': OK, 'node-x': OK, 'node-y': SKEW },
    ],
    [
      'terminating pods do not count',
      pod({ spread: [spread(HOST, 1)] }),
      fourNodes,
      [...on('node-a'), ...on('node-b'), ...on('node-x', 1, { terminating: true }), ...on('node-y')],
      { 'node-a': SKEW, 'node-b': SKEW, 'node-x': OK, 'node-y': SKEW },
    ],
    [
      'an incoming pod not matching its own selector adds no skew',
      pod({ labels: { bar: '' }, spread: [spread(HOST, 1)] }),
      fourNodes,
      [...on('node-a'), ...on('node-b'), ...on('node-y')],
      { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    ],
    [
      'minDomains 3 over 2 zones: the global minimum counts as 0',
      pod({ spread: [spread('zone', 2, { minDomains: 3 })] }),
      fourNodes,
      [...on('node-a'), ...on('node-b'), ...on('node-x')],
      { 'node-a': SKEW, 'node-b': SKEW, 'node-x': OK, 'node-y': OK },
    ],
    [
      'minDomains 2 over 2 zones: the real minimum',
      pod({ spread: [spread('zone', 2, { minDomains: 2 })] }),
      fourNodes,
      [...on('node-a'), ...on('node-b'), ...on('node-x')],
      { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    ],
    [
      'nodeAffinityPolicy Honor (default): nodes outside the nodeSelector do not count',
      pod({ nodeSelector: { zone: 'zone1' }, spread: [spread('zone', 1)] }),
      fourNodes,
      [...on('node-a'), ...on('node-b')],
      { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    ],
    [
      'nodeAffinityPolicy Ignore: they do',
      pod({ nodeSelector: { zone: 'zone1' }, spread: [spread('zone', 1, { nodeAffinityPolicy: 'Ignore' })] }),
      fourNodes,
      [...on('node-a'), ...on('node-b')],
      { 'node-a': SKEW, 'node-b': SKEW, 'node-x': OK, 'node-y': OK },
    ],
    [
      'nodeTaintsPolicy Honor: an untolerated tainted node is not a domain',
      pod({ spread: [spread(HOST, 1, { nodeTaintsPolicy: 'Honor' })] }),
      taintedB,
      [...on('node-a', 2), ...on('node-c')],
      { 'node-a': SKEW, 'node-b': OK, 'node-c': OK },
    ],
    [
      'nodeTaintsPolicy Honor with a toleration: it is',
      pod({
        spread: [spread(HOST, 1, { nodeTaintsPolicy: 'Honor' })],
        tolerations: [{ key: 'x', operator: 'Exists', effect: 'NoSchedule' }],
      }),
      taintedB,
      [...on('node-a', 2), ...on('node-c')],
      { 'node-a': SKEW, 'node-b': OK, 'node-c': SKEW },
    ],
    [
      'nodeTaintsPolicy Ignore (default): it is',
      pod({ spread: [spread(HOST, 1)] }),
      taintedB,
      [...on('node-a', 2), ...on('node-c')],
      { 'node-a': SKEW, 'node-b': OK, 'node-c': SKEW },
    ],
    [
      'matchLabelKeys narrows the selector to pods with the same value',
      pod({ labels: { foo: '', rev: 'v2' }, spread: [spread(HOST, 1, { matchLabelKeys: ['rev'] })] }),
      fourNodes,
      [
        ...on('node-a', 3, { labels: { foo: '', rev: 'v1' } }),
        ...on('node-b', 1, { labels: { foo: '', rev: 'v2' } }),
      ],
      { 'node-a': OK, 'node-b': SKEW, 'node-x': OK, 'node-y': OK },
    ],
    [
      'two constraints: zone and hostname both hold',
      pod({ spread: [spread('zone', 1), spread(HOST, 1)] }),
      fourNodes,
      [...on('node-a'), ...on('node-x'), ...on('node-y')],
      { 'node-a': SKEW, 'node-b': OK, 'node-x': SKEW, 'node-y': SKEW },
    ],
    [
      'ScheduleAnyway constraints do not filter',
      pod({ spread: [spread(HOST, 1, { whenUnsatisfiable: 'ScheduleAnyway' })] }),
      fourNodes,
      [...on('node-a', 5)],
      { 'node-a': OK, 'node-b': OK, 'node-x': OK, 'node-y': OK },
    ],
  ])('%s', (_name, incoming, nodes, existing, want) => {
    expect(filterAll(plugin(), incoming, makeSnapshot(nodes, existing))).toEqual(want);
  });
});

describe('PodTopologySpread.score', () => {
  const anyway = (key: string, maxSkew: number) =>
    spread(key, maxSkew, { whenUnsatisfiable: 'ScheduleAnyway' });

  it.each<[string, Pod, Node[], Pod[], Record<string, number> | undefined]>([
    ['no constraints and no services: skipped', pod(), fourNodes, [], undefined],
    [
      'one constraint on node, no existing pods',
      pod({ spread: [anyway(HOST, 1)] }),
      [node('node-a'), node('node-b')],
      [],
      { 'node-a': 100, 'node-b': 100 },
    ],
    [
      // log(4 nodes + 2) = 1.79: raw round(cnt × 1.79) = 4, 2, 0, 5; 100 × (5 + 0 − raw) / 5.
      'hostname 2/1/0/3',
      pod({ spread: [anyway(HOST, 1)] }),
      [node('node-a'), node('node-b'), node('node-c'), node('node-d')],
      [...on('node-a', 2), ...on('node-b'), ...on('node-d', 3)],
      { 'node-a': 20, 'node-b': 60, 'node-c': 100, 'node-d': 0 },
    ],
    [
      'zone: fewer matching pods in the zone scores higher; a node without the key scores 0',
      pod({ spread: [anyway('zone', 1)] }),
      [node('node-a', 'zone1'), node('node-b', 'zone1'), node('node-x', 'zone2'), node('node-n')],
      // log(2 zones + 2) = 1.39: raw round(3 × 1.39) = 4 and round(1 × 1.39) = 1.
      [...on('node-a', 2), ...on('node-b'), ...on('node-x')],
      { 'node-a': 25, 'node-b': 25, 'node-x': 100, 'node-n': 0 },
    ],
    [
      'maxSkew waters differences down',
      pod({ spread: [anyway(HOST, 3)] }),
      [node('node-a'), node('node-b')],
      [...on('node-a')],
      { 'node-a': 66, 'node-b': 100 },
    ],
  ])('%s', (_name, incoming, nodes, existing, want) => {
    expect(scoreAll(plugin(), incoming, makeSnapshot(nodes, existing))).toEqual(want);
  });

  it('spreads pods of a service by default (System: hostname maxSkew 3, zone maxSkew 5)', () => {
    const objects: ClusterObjects = {
      ...NO_CLUSTER_OBJECTS,
      serviceSelectors: (ns) => (ns === 'default' ? [{ app: 'web' }] : []),
    };
    const web = { app: 'web' };
    const zoned = (name: string, zone?: string) =>
      labelledNode(name, { [HOST]: name, ...(zone ? { [LABEL_TOPOLOGY_ZONE]: zone } : {}) });
    const nodes = [zoned('node-a', 'zone1'), zoned('node-b', 'zone2'), zoned('node-c')];
    const existing = [...on('node-a', 6, { labels: web }), ...on('node-b', 1, { labels: web })];
    const scores = scoreAll(plugin({}, objects), pod({ labels: web }), makeSnapshot(nodes, existing));
    // node-c has no zone: with system defaults it is still scored, by hostname alone.
    // Raw: node-a 6 × log 5 + 2 + 6 × log 5 + 4 = 25, node-b 9, node-c 2 (hostname only).
    expect(scores).toEqual({ 'node-a': 8, 'node-b': 72, 'node-c': 100 });
    // A pod no service selects has no default constraints.
    expect(scoreAll(plugin({}, objects), pod({ labels: { app: 'db' } }), makeSnapshot(nodes, existing))).toBe(
      undefined,
    );
  });

  it('List defaulting uses the listed constraints, DoNotSchedule ones filtering', () => {
    const objects: ClusterObjects = { ...NO_CLUSTER_OBJECTS, serviceSelectors: () => [{ app: 'web' }] };
    const pl = plugin(
      {
        defaultingType: 'List',
        defaultConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }],
      },
      objects,
    );
    const web = { app: 'web' };
    const r = filterAll(pl, pod({ labels: web }), makeSnapshot(fourNodes, on('node-a', 1, { labels: web })));
    expect(r).toEqual({ 'node-a': SKEW, 'node-b': SKEW, 'node-x': OK, 'node-y': OK });
  });
});

describe('PodTopologySpread args', () => {
  it('defaults to the system constraints', () => {
    expect(parsePodTopologySpreadArgs({})).toEqual({
      defaultingType: 'System',
      defaultConstraints: SYSTEM_DEFAULT_CONSTRAINTS,
    });
    expect(SYSTEM_DEFAULT_CONSTRAINTS).toEqual([
      { topologyKey: HOST, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
      { topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
    ]);
  });

  it('refuses a bad topology key', () => {
    expect(() =>
      parsePodTopologySpreadArgs({
        defaultingType: 'List',
        defaultConstraints: [{ maxSkew: 1, topologyKey: 'a b', whenUnsatisfiable: 'DoNotSchedule' }],
      }),
    ).toThrow('args.defaultConstraints[0].topologyKey: Invalid value: "a b": name part must consist of');
  });
});
