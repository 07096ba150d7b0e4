import { describe, expect, it } from 'vitest';
import { SchedulerCache } from '../../cache/cache.js';
import { filterAll, inExpr, labelledNode, scoreAll, term } from '../../framework/testing/cluster.js';
import { NO_CLUSTER_OBJECTS, type ClusterObjects } from '../../framework/interface.js';
import type { Pod, PodAffinityTerm } from '../../framework/types.js';
import { parseInterPodAffinityArgs } from './args.js';
import { InterPodAffinity } from './inter-pod-affinity.js';

// One plugin and one cache over several cycles, as in the daemon: the counts the cache keeps for
// the plugin (cache/pod-count-index.ts) follow every change between cycles.

const ANTI = { code: 'Unschedulable', reasons: ["node(s) didn't match pod anti-affinity rules"] };
const EXISTING = {
  code: 'Unschedulable',
  reasons: ["node(s) didn't satisfy existing pods anti-affinity rules"],
};

let seq = 0;
function pod(o: {
  ns?: string;
  node?: string;
  labels?: Record<string, string>;
  anti?: PodAffinityTerm[];
  preferred?: PodAffinityTerm[];
}): Pod {
  const name = `p${seq++}`;
  return {
    metadata: { name, uid: name, namespace: o.ns ?? 'default', labels: o.labels ?? {} },
    spec: {
      containers: [{ name: 'c' }],
      ...(o.node ? { nodeName: o.node } : {}),
      affinity: {
        podAntiAffinity: {
          ...(o.anti ? { requiredDuringSchedulingIgnoredDuringExecution: o.anti } : {}),
          ...(o.preferred
            ? {
                preferredDuringSchedulingIgnoredDuringExecution: o.preferred.map((podAffinityTerm) => ({
                  weight: 10,
                  podAffinityTerm,
                })),
              }
            : {}),
        },
      },
    },
  };
}

function cluster(): SchedulerCache {
  const cache = new SchedulerCache();
  cache.addNode(labelledNode('n1', { zone: 'z1' }));
  cache.addNode(labelledNode('n2', { zone: 'z1' }));
  cache.addNode(labelledNode('n3', { zone: 'z2' }));
  return cache;
}

/** Namespace labels that the test changes between cycles. */
function namespaces(labels: Record<string, Record<string, string>>): ClusterObjects {
  return {
    ...NO_CLUSTER_OBJECTS,
    namespaceLabels: (ns) => labels[ns],
    namespacesMatching: (sel) => Object.keys(labels).filter((ns) => sel.matches(labels[ns] ?? {})),
  };
}

const web = { app: 'web' };
const antiWebZone = [term('zone', inExpr('app', 'web'))];

describe('InterPodAffinity over cycles sharing one cache', () => {
  it('follows an existing pod deleted, relabelled, and its node relabelled', () => {
    const cache = cluster();
    const plugin = new InterPodAffinity(parseInterPodAffinityArgs({}), NO_CLUSTER_OBJECTS);
    const incoming = pod({ anti: antiWebZone });
    const existing = pod({ node: 'n1', labels: web });
    cache.addPod(existing);
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: ANTI, n2: ANTI, n3: undefined });
    cache.updateNode(undefined, labelledNode('n1', { zone: 'z2' }));
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: ANTI, n2: undefined, n3: ANTI });
    cache.updatePod(existing, { ...existing, metadata: { ...existing.metadata, labels: { app: 'db' } } });
    const none = { n1: undefined, n2: undefined, n3: undefined };
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual(none);
    cache.updatePod(undefined, existing);
    cache.removePod(existing);
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual(none);
  });

  it("follows existing pods' anti-affinity terms as their pods come and go", () => {
    const cache = cluster();
    const plugin = new InterPodAffinity(parseInterPodAffinityArgs({}), NO_CLUSTER_OBJECTS);
    const guard = pod({ node: 'n3', anti: antiWebZone });
    cache.addPod(guard);
    const incoming = pod({ labels: web });
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({
      n1: undefined,
      n2: undefined,
      n3: EXISTING,
    });
    cache.removePod(guard);
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({
      n1: undefined,
      n2: undefined,
      n3: undefined,
    });
  });

  it("re-reads namespace labels for the incoming pod's namespaceSelector each cycle", () => {
    const cache = cluster();
    const labels: Record<string, Record<string, string>> = { prod: { team: 'red' }, default: {} };
    const plugin = new InterPodAffinity(parseInterPodAffinityArgs({}), namespaces(labels));
    cache.addPod(pod({ ns: 'prod', node: 'n3', labels: web }));
    const incoming = pod({
      anti: [term('zone', inExpr('app', 'web'), { namespaceSelector: { matchLabels: { team: 'red' } } })],
    });
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: undefined, n2: undefined, n3: ANTI });
    labels['prod'] = { team: 'blue' };
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({
      n1: undefined,
      n2: undefined,
      n3: undefined,
    });
    labels['prod'] = { team: 'red' };
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: undefined, n2: undefined, n3: ANTI });
  });

  it("matches an existing pod's namespaceSelector against the incoming namespace's labels of now", () => {
    const cache = cluster();
    const labels: Record<string, Record<string, string>> = { default: { team: 'red' } };
    const plugin = new InterPodAffinity(parseInterPodAffinityArgs({}), namespaces(labels));
    const sel = { namespaceSelector: { matchLabels: { team: 'red' } } };
    cache.addPod(pod({ ns: 'other', node: 'n3', anti: [term('zone', inExpr('app', 'web'), sel)] }));
    const incoming = pod({ labels: web });
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({
      n1: undefined,
      n2: undefined,
      n3: EXISTING,
    });
    labels['default'] = { team: 'blue' };
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({
      n1: undefined,
      n2: undefined,
      n3: undefined,
    });
  });

  it('scores preferred anti-affinity from counts that follow pod deletion', () => {
    const cache = cluster();
    const plugin = new InterPodAffinity(parseInterPodAffinityArgs({}), NO_CLUSTER_OBJECTS);
    const existing = pod({ node: 'n1', labels: web });
    cache.addPod(existing);
    const incoming = pod({ preferred: antiWebZone });
    expect(scoreAll(plugin, incoming, cache.snapshot())).toEqual({ n1: 0, n2: 0, n3: 100 });
    cache.removePod(existing);
    expect(scoreAll(plugin, incoming, cache.snapshot())).toBeUndefined();
  });
});
