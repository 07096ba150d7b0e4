import { describe, expect, it } from 'vitest';
import { SchedulerCache } from '../../cache/cache.js';
import { filterAll, labelledNode } from '../../framework/testing/cluster.js';
import { NO_CLUSTER_OBJECTS } from '../../framework/interface.js';
import type { Pod } from '../../framework/types.js';
import { parsePodTopologySpreadArgs } from './args.js';
import { PodTopologySpread } from './pod-topology-spread.js';

// One plugin and one cache over several cycles, as in the daemon: the per-domain counts the cache
// keeps (cache/pod-count-index.ts) follow every change between cycles.

const SKEW = { code: 'Unschedulable', reasons: ["node(s) didn't match pod topology spread constraints"] };

let seq = 0;
function pod(node?: string, labels: Record<string, string> = { app: 'web' }, ns = 'default'): Pod {
  const name = `p${seq++}`;
  return {
    metadata: { name, uid: name, namespace: ns, labels },
    spec: {
      containers: [{ name: 'c' }],
      ...(node ? { nodeName: node } : {}),
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'zone',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    },
  };
}

describe('PodTopologySpread over cycles sharing one cache', () => {
  it('follows pods deleted, relabelled, terminating or in another namespace, and node labels', () => {
    const cache = new SchedulerCache();
    cache.addNode(labelledNode('n1', { zone: 'z1' }));
    cache.addNode(labelledNode('n2', { zone: 'z2' }));
    const plugin = new PodTopologySpread(parsePodTopologySpreadArgs({}), NO_CLUSTER_OBJECTS);
    const incoming = pod();
    const a = pod('n1');
    cache.addPod(a);
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: SKEW, n2: undefined });
    cache.removePod(a);
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: undefined, n2: undefined });
    const b = pod('n2');
    cache.addPod(b);
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: undefined, n2: SKEW });
    cache.updatePod(b, { ...b, metadata: { ...b.metadata, labels: { app: 'db' } } });
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: undefined, n2: undefined });
    cache.updatePod(undefined, {
      ...b,
      metadata: { ...b.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' },
    });
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: undefined, n2: undefined });
    cache.addPod(pod('n2', { app: 'web' }, 'other'));
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: undefined, n2: undefined });
    cache.addPod(pod('n2'));
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: undefined, n2: SKEW });
    // n1 joins z2: one domain, so the skew is 0 everywhere.
    cache.updateNode(undefined, labelledNode('n1', { zone: 'z2' }));
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: undefined, n2: undefined });
    // A new empty zone is a domain with 0 pods.
    cache.addNode(labelledNode('n3', { zone: 'z3' }));
    expect(filterAll(plugin, incoming, cache.snapshot())).toEqual({ n1: SKEW, n2: SKEW, n3: undefined });
  });
});
