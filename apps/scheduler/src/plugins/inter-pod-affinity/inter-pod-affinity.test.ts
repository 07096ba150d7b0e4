import { describe, expect, it } from 'vitest';
import {
  filterAll,
  inExpr,
  labelledNode,
  makeSnapshot,
  scoreAll,
  term,
} from '../../framework/testing/cluster.js';
import { NO_CLUSTER_OBJECTS, type ClusterObjects } from '../../framework/interface.js';
import type { Pod, PodAffinity, PodAffinityTerm } from '../../framework/types.js';
import { parseInterPodAffinityArgs } from './args.js';
import { InterPodAffinity } from './inter-pod-affinity.js';

// Cases mirror kube's interpodaffinity filtering_test.go and scoring_test.go tables.

interface PodSpecIn {
  readonly ns?: string;
  readonly node?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly affinity?: readonly PodAffinityTerm[];
  readonly antiAffinity?: readonly PodAffinityTerm[];
  readonly preferredAffinity?: readonly [number, PodAffinityTerm][];
  readonly preferredAntiAffinity?: readonly [number, PodAffinityTerm][];
}

let n = 0;
function pod(s: PodSpecIn): Pod {
  const name = `p${n++}`;
  const side = (req?: readonly PodAffinityTerm[], pref?: readonly [number, PodAffinityTerm][]) =>
    req || pref
      ? ({
          ...(req ? { requiredDuringSchedulingIgnoredDuringExecution: req } : {}),
          ...(pref
            ? {
                preferredDuringSchedulingIgnoredDuringExecution: pref.map(([weight, podAffinityTerm]) => ({
                  weight,
                  podAffinityTerm,
                })),
              }
            : {}),
        } satisfies PodAffinity)
      : undefined;
  const podAffinity = side(s.affinity, s.preferredAffinity);
  const podAntiAffinity = side(s.antiAffinity, s.preferredAntiAffinity);
  return {
    metadata: { name, namespace: s.ns ?? 'default', uid: name, ...(s.labels ? { labels: s.labels } : {}) },
    spec: {
      containers: [{ name: 'c' }],
      ...(s.node ? { nodeName: s.node } : {}),
      ...(podAffinity || podAntiAffinity
        ? {
            affinity: {
              ...(podAffinity ? { podAffinity } : {}),
              ...(podAntiAffinity ? { podAntiAffinity } : {}),
            },
          }
        : {}),
    },
  };
}

const plugin = (args: Record<string, unknown> = {}, objects: ClusterObjects = NO_CLUSTER_OBJECTS) =>
  new InterPodAffinity(parseInterPodAffinityArgs(args), objects);

const securityscan = { service: 'securityscan' };
const s1 = { security: 'S1' };
const machine1 = labelledNode('machine1', { region: 'r1', zone: 'z11' });
const AFFINITY = {
  code: 'UnschedulableAndUnresolvable',
  reasons: ["node(s) didn't match pod affinity rules"],
};
const ANTI = { code: 'Unschedulable', reasons: ["node(s) didn't match pod anti-affinity rules"] };
const EXISTING = {
  code: 'Unschedulable',
  reasons: ["node(s) didn't satisfy existing pods anti-affinity rules"],
};

describe('InterPodAffinity.filter on one node (kube TestRequiredAffinitySingleNode)', () => {
  it.each<[string, Pod, Pod[], unknown]>([
    ['no required affinity, empty node', pod({}), [], undefined],
    [
      'affinity In matches the existing pod',
      pod({ labels: s1, affinity: [term('region', inExpr('service', 'securityscan', 'value2'))] }),
      [pod({ node: 'machine1', labels: securityscan })],
      undefined,
    ],
    [
      'affinity NotIn matches the existing pod',
      pod({
        labels: s1,
        affinity: [
          term('region', {
            matchExpressions: [{ key: 'service', operator: 'NotIn', values: ['securityscan3'] }],
          }),
        ],
      }),
      [pod({ node: 'machine1', labels: securityscan })],
      undefined,
    ],
    [
      'affinity in another namespace does not match',
      pod({
        labels: s1,
        affinity: [term('region', inExpr('service', 'securityscan'), { namespaces: ['DiffNameSpace'] })],
      }),
      [pod({ ns: 'ns', node: 'machine1', labels: securityscan })],
      AFFINITY,
    ],
    [
      'affinity selector does not match the existing pod',
      pod({ labels: securityscan, affinity: [term('region', inExpr('service', 'antivirusscan'))] }),
      [pod({ node: 'machine1', labels: securityscan })],
      AFFINITY,
    ],
    [
      'terms are ANDed: one does not match',
      pod({
        labels: s1,
        affinity: [
          term('region', {
            matchExpressions: [
              { key: 'service', operator: 'Exists' },
              { key: 'wrongkey', operator: 'DoesNotExist' },
            ],
          }),
          term('region', inExpr('service', 'securityscan2')),
        ],
      }),
      [pod({ node: 'machine1', labels: securityscan })],
      AFFINITY,
    ],
    [
      'affinity and anti-affinity both satisfied',
      pod({
        labels: s1,
        affinity: [term('region', inExpr('service', 'securityscan'))],
        antiAffinity: [term('node', inExpr('service', 'antivirusscan'))],
      }),
      [pod({ node: 'machine1', labels: securityscan })],
      undefined,
    ],
    [
      'affinity satisfied, anti-affinity not',
      pod({
        labels: s1,
        affinity: [term('region', inExpr('service', 'securityscan'))],
        antiAffinity: [term('zone', inExpr('service', 'securityscan'))],
      }),
      [pod({ node: 'machine1', labels: securityscan })],
      ANTI,
    ],
    [
      "an existing pod's anti-affinity rejects the incoming pod (symmetry)",
      pod({ labels: securityscan }),
      [
        pod({
          node: 'machine1',
          labels: securityscan,
          antiAffinity: [term('zone', inExpr('service', 'securityscan'))],
        }),
      ],
      EXISTING,
    ],
    [
      "an existing pod's anti-affinity that does not select the incoming pod",
      pod({ labels: securityscan }),
      [
        pod({
          node: 'machine1',
          labels: securityscan,
          antiAffinity: [
            term('zone', {
              matchExpressions: [{ key: 'service', operator: 'NotIn', values: ['securityscan'] }],
            }),
          ],
        }),
      ],
      undefined,
    ],
    [
      'the node lacks the topology key',
      pod({ labels: s1, affinity: [term('rack', inExpr('service', 'securityscan'))] }),
      [pod({ node: 'machine1', labels: securityscan })],
      AFFINITY,
    ],
  ])('%s', (_name, incoming, existing, want) => {
    const snapshot = makeSnapshot([machine1], existing);
    expect(filterAll(plugin(), incoming, snapshot).machine1).toEqual(want);
  });
});

describe('InterPodAffinity.filter across nodes', () => {
  const nodes = [
    labelledNode('n1', { zone: 'a', 'kubernetes.io/hostname': 'n1' }),
    labelledNode('n2', { zone: 'a', 'kubernetes.io/hostname': 'n2' }),
    labelledNode('n3', { zone: 'b', 'kubernetes.io/hostname': 'n3' }),
  ];
  const app = { app: 'web' };

  it('lets the first pod of a self-affine group go anywhere, then follows the group', () => {
    const self = () => pod({ labels: app, affinity: [term('zone', inExpr('app', 'web'))] });
    expect(filterAll(plugin(), self(), makeSnapshot(nodes))).toEqual({
      n1: undefined,
      n2: undefined,
      n3: undefined,
    });
    const r = filterAll(plugin(), self(), makeSnapshot(nodes, [pod({ node: 'n3', labels: app })]));
    expect(r).toEqual({ n1: AFFINITY, n2: AFFINITY, n3: undefined });
  });

  it('does not apply the first-pod rule when the pod does not match its own terms', () => {
    const r = filterAll(
      plugin(),
      pod({ affinity: [term('zone', inExpr('app', 'web'))] }),
      makeSnapshot(nodes),
    );
    expect(r).toEqual({ n1: AFFINITY, n2: AFFINITY, n3: AFFINITY });
  });

  it('keeps a zone free of pods its anti-affinity selects', () => {
    const incoming = pod({ labels: app, antiAffinity: [term('zone', inExpr('app', 'web'))] });
    const r = filterAll(plugin(), incoming, makeSnapshot(nodes, [pod({ node: 'n1', labels: app })]));
    expect(r).toEqual({ n1: ANTI, n2: ANTI, n3: undefined });
  });

  it('keeps existing pods away by their hostname anti-affinity only on their own node', () => {
    const existing = pod({
      node: 'n2',
      labels: app,
      antiAffinity: [term('kubernetes.io/hostname', inExpr('app', 'web'))],
    });
    const r = filterAll(plugin(), pod({ labels: app }), makeSnapshot(nodes, [existing]));
    expect(r).toEqual({ n1: undefined, n2: EXISTING, n3: undefined });
  });

  it('matches namespaces through namespaceSelector', () => {
    const objects: ClusterObjects = {
      ...NO_CLUSTER_OBJECTS,
      namespaceLabels: (ns) => ({ team: ns === 'prod' ? 'red' : 'blue' }),
      namespacesMatching: (sel) =>
        ['prod', 'dev'].filter((ns) => sel.matches({ team: ns === 'prod' ? 'red' : 'blue' })),
    };
    const existing = [
      pod({ ns: 'prod', node: 'n1', labels: app }),
      pod({ ns: 'dev', node: 'n3', labels: app }),
    ];
    const incoming = pod({
      ns: 'default',
      antiAffinity: [
        term('zone', inExpr('app', 'web'), { namespaceSelector: { matchLabels: { team: 'red' } } }),
      ],
    });
    expect(filterAll(plugin({}, objects), incoming, makeSnapshot(nodes, existing))).toEqual({
      n1: ANTI,
      n2: ANTI,
      n3: undefined,
    });
    // `{}` selects every namespace.
    const all = pod({ antiAffinity: [term('zone', inExpr('app', 'web'), { namespaceSelector: {} })] });
    expect(filterAll(plugin({}, objects), all, makeSnapshot(nodes, existing))).toEqual({
      n1: ANTI,
      n2: ANTI,
      n3: ANTI,
    });
  });

  it("matches an existing pod's namespaceSelector against the incoming pod's namespace labels", () => {
    const objects: ClusterObjects = { ...NO_CLUSTER_OBJECTS, namespaceLabels: () => ({ team: 'red' }) };
    const existing = pod({
      ns: 'other',
      node: 'n3',
      antiAffinity: [
        term('zone', inExpr('app', 'web'), { namespaceSelector: { matchLabels: { team: 'red' } } }),
      ],
    });
    const r = filterAll(plugin({}, objects), pod({ labels: app }), makeSnapshot(nodes, [existing]));
    expect(r).toEqual({ n1: undefined, n2: undefined, n3: EXISTING });
  });

  it('skips when neither the pod nor any existing pod has required terms', () => {
    const r = filterAll(
      plugin(),
      pod({ labels: app }),
      makeSnapshot(nodes, [pod({ node: 'n1', labels: app })]),
    );
    expect(r).toEqual({ n1: undefined, n2: undefined, n3: undefined });
  });
});

describe('InterPodAffinity.score (kube TestPreferredAffinity)', () => {
  const region = (r: string, name: string) => labelledNode(name, { region: r, zone: `z-${name}` });
  const nodes = [region('China', 'machine1'), region('India', 'machine2'), region('China', 'machine3')];
  const s1Label = { security: 'S1' };
  const s2Label = { security: 'S2' };
  const prefS1 = (w: number): [number, PodAffinityTerm] => [w, term('region', inExpr('security', 'S1'))];

  it.each<[string, Pod, Pod[], Record<string, number> | undefined, Record<string, unknown>?]>([
    ['no affinity anywhere: skipped', pod({}), [pod({ node: 'machine1', labels: s1Label })], undefined],
    [
      'preferred affinity: the region with a matching pod scores 100',
      pod({ preferredAffinity: [prefS1(5)] }),
      [pod({ node: 'machine1', labels: s1Label }), pod({ node: 'machine2', labels: s2Label })],
      { machine1: 100, machine2: 0, machine3: 100 },
    ],
    [
      'preferred anti-affinity: the region with a matching pod scores 0',
      pod({ preferredAntiAffinity: [prefS1(5)] }),
      [pod({ node: 'machine1', labels: s1Label }), pod({ node: 'machine2', labels: s2Label })],
      { machine1: 0, machine2: 100, machine3: 0 },
    ],
    [
      'weights add up per topology pair, then scale between the lowest and highest',
      pod({
        preferredAffinity: [prefS1(8), [2, term('region', inExpr('security', 'S2'))]],
        preferredAntiAffinity: [[4, term('zone', inExpr('security', 'S1'))]],
      }),
      [pod({ node: 'machine1', labels: s1Label }), pod({ node: 'machine2', labels: s2Label })],
      // machine1 8 − 4 = 4, machine2 2, machine3 8: (4 − 2) / 6 → 33.
      { machine1: 33, machine2: 0, machine3: 100 },
    ],
    [
      "existing pods' required affinity counts with hardPodAffinityWeight",
      pod({ labels: s1Label }),
      [pod({ node: 'machine2', affinity: [term('region', inExpr('security', 'S1'))] })],
      { machine1: 0, machine2: 100, machine3: 0 },
    ],
    [
      'hardPodAffinityWeight 0 ignores them',
      pod({ labels: s1Label }),
      [pod({ node: 'machine2', affinity: [term('region', inExpr('security', 'S1'))] })],
      undefined,
      { hardPodAffinityWeight: 0 },
    ],
    [
      "existing pods' preferred anti-affinity pushes the pod away",
      pod({ labels: s1Label }),
      [pod({ node: 'machine1', preferredAntiAffinity: [prefS1(10)] })],
      { machine1: 0, machine2: 100, machine3: 0 },
    ],
    [
      'ignorePreferredTermsOfExistingPods skips pods without preferred terms',
      pod({ labels: s1Label }),
      [pod({ node: 'machine1', preferredAntiAffinity: [prefS1(10)] })],
      undefined,
      { ignorePreferredTermsOfExistingPods: true },
    ],
  ])('%s', (_name, incoming, existing, want, args = {}) => {
    expect(scoreAll(plugin(args), incoming, makeSnapshot(nodes, existing))).toEqual(want);
  });
});

describe('InterPodAffinity args', () => {
  it('defaults hardPodAffinityWeight to 1 and refuses values outside 0..100', () => {
    expect(parseInterPodAffinityArgs({})).toEqual({
      hardPodAffinityWeight: 1,
      ignorePreferredTermsOfExistingPods: false,
    });
    expect(() => parseInterPodAffinityArgs({ hardPodAffinityWeight: -1 })).toThrow(
      'args.hardPodAffinityWeight: Invalid value: -1: not in valid range [0-100]',
    );
    expect(() => parseInterPodAffinityArgs({ hardPodAfinityWeight: 1 })).toThrow(
      'invalid InterPodAffinity args',
    );
  });
});
