import { describe, expect, it } from 'vitest';
import { labelledNode } from '../framework/testing/cluster.js';
import { makePod } from '../framework/testing/fixtures.js';
import type { Node, Pod } from '../framework/types.js';
import { SchedulerCache } from './cache.js';
import type { PodQuery } from './pod-count-index.js';
import type { Snapshot } from './snapshot.js';

const ZONE = 'zone';
const web = (name: string, nodeName: string, labels: Record<string, string> = { app: 'web' }): Pod =>
  makePod(name, { nodeName, labels });
const webQuery = (topologyKey = ZONE, requiredKeys?: string[]): PodQuery => ({
  key: `app=web ${topologyKey} ${requiredKeys?.join(',') ?? ''}`,
  matches: (p) => p.metadata.labels?.['app'] === 'web',
  topologyKey,
  ...(requiredKeys ? { requiredKeys } : {}),
});
const counts = (s: Snapshot, q = webQuery()) => Object.fromEntries(s.podCounts(q));

function cluster(): SchedulerCache {
  const cache = new SchedulerCache();
  cache.addNode(labelledNode('n1', { zone: 'a', rack: 'r1' }));
  cache.addNode(labelledNode('n2', { zone: 'a' }));
  cache.addNode(labelledNode('n3', { zone: 'b', rack: 'r2' }));
  return cache;
}

describe('PodCountIndex through the cache', () => {
  it('counts matching pods per domain, including pods added before the first query', () => {
    const cache = cluster();
    cache.addPod(web('a', 'n1'));
    cache.addPod(web('other', 'n2', { app: 'db' }));
    expect(counts(cache.snapshot())).toEqual({ a: 1 });
    cache.addPod(web('b', 'n2'));
    cache.assumePod(makePod('c', { labels: { app: 'web' } }), 'n3');
    expect(counts(cache.snapshot())).toEqual({ a: 2, b: 1 });
  });

  it('follows pod deletion, label change, a forgotten assumption and a move', () => {
    const cache = cluster();
    const a = web('a', 'n1');
    cache.addPod(a);
    cache.addPod(web('b', 'n3'));
    const c = makePod('c', { labels: { app: 'web' } });
    cache.assumePod(c, 'n3');
    expect(counts(cache.snapshot())).toEqual({ a: 1, b: 2 });
    cache.removePod(a);
    expect(counts(cache.snapshot())).toEqual({ b: 2 });
    cache.updatePod(web('b', 'n3'), web('b', 'n3', { app: 'db' }));
    expect(counts(cache.snapshot())).toEqual({ b: 1 });
    cache.forgetPod(c);
    expect(counts(cache.snapshot())).toEqual({});
    cache.assumePod(c, 'n3');
    cache.addPod(web('c', 'n1'));
    expect(counts(cache.snapshot())).toEqual({ a: 1 });
  });

  it('moves counts when a node changes labels, and drops them with the Node object', () => {
    const cache = cluster();
    cache.addPod(web('a', 'n1'));
    cache.addPod(web('b', 'n1'));
    expect(counts(cache.snapshot())).toEqual({ a: 2 });
    cache.updateNode(undefined, labelledNode('n1', { zone: 'c' }));
    expect(counts(cache.snapshot())).toEqual({ c: 2 });
    cache.updateNode(undefined, labelledNode('n1', {}));
    expect(counts(cache.snapshot())).toEqual({});
    cache.updateNode(undefined, labelledNode('n1', { zone: 'a' }));
    const n1: Node = labelledNode('n1', { zone: 'a' });
    cache.removeNode(n1);
    expect(counts(cache.snapshot())).toEqual({});
    // Pods stay on the node-less NodeInfo and count again when the Node comes back.
    cache.addNode(labelledNode('n1', { zone: 'b' }));
    expect(counts(cache.snapshot())).toEqual({ b: 2 });
  });

  it('counts only nodes with every required key, and their domains with zero pods too', () => {
    const cache = cluster();
    cache.addPod(web('a', 'n2'));
    cache.addPod(web('b', 'n3'));
    const s = cache.snapshot();
    expect(counts(s, webQuery(ZONE, ['rack', ZONE]))).toEqual({ b: 1 });
    expect(Object.fromEntries(s.domains(ZONE))).toEqual({ a: 2, b: 1 });
    expect(Object.fromEntries(s.domains(ZONE, ['rack', ZONE]))).toEqual({ a: 1, b: 1 });
    cache.addNode(labelledNode('n4', { zone: 'd' }));
    cache.removeNode(labelledNode('n3', { zone: 'b', rack: 'r2' }));
    cache.updateNode(undefined, labelledNode('n2', { zone: 'a', rack: 'r3' }));
    const t = cache.snapshot();
    expect(Object.fromEntries(t.domains(ZONE))).toEqual({ a: 2, d: 1 });
    expect(Object.fromEntries(t.domains(ZONE, ['rack', ZONE]))).toEqual({ a: 2 });
    expect(counts(t, webQuery(ZONE, ['rack', ZONE]))).toEqual({ a: 1 });
  });

  it('never changes a map it handed out', () => {
    const cache = cluster();
    cache.addPod(web('a', 'n1'));
    const before = cache.snapshot().podCounts(webQuery());
    const domains = cache.snapshot().domains(ZONE);
    cache.addPod(web('b', 'n1'));
    cache.addNode(labelledNode('n5', { zone: 'e' }));
    expect([Object.fromEntries(before), Object.fromEntries(domains)]).toEqual([{ a: 1 }, { a: 2, b: 1 }]);
    expect(counts(cache.snapshot())).toEqual({ a: 2 });
  });

  it('keeps every handed-out map as it was, across later reads and changes', () => {
    const cache = cluster();
    cache.addNode(labelledNode('n4', { zone: 'c' }));
    const q = webQuery();
    const seen: [ReadonlyMap<string, number>, Record<string, number>][] = [];
    const take = () => {
      const m = cache.snapshot().podCounts(q);
      seen.push([m, Object.fromEntries(m)]);
    };
    take();
    cache.addPod(web('a', 'n1'));
    take();
    take();
    cache.addPod(web('b', 'n2'));
    cache.addPod(web('c', 'n2'));
    take();
    cache.removePod(web('a', 'n1'));
    cache.addPod(web('d', 'n3'));
    take();
    cache.removePod(web('b', 'n2'));
    // Each map still answers get, has, size and iteration as when it was read, however many
    // views were taken since; and read twice without a change in between, it is the same map.
    expect(seen[1]?.[0]).toBe(seen[2]?.[0]);
    for (const [m, want] of seen.reverse()) {
      expect(Object.fromEntries(m)).toEqual(want);
      expect(m.size).toBe(Object.keys(want).length);
      for (const z of ['a', 'b', 'c']) {
        expect(m.get(z)).toBe(want[z]);
        expect(m.has(z)).toBe(want[z] !== undefined);
      }
    }
    expect(seen.map(([, want]) => want).reverse()).toEqual([
      {},
      { a: 1 },
      { a: 1 },
      { a: 3 },
      { a: 2, b: 1 },
    ]);
    expect(counts(cache.snapshot(), q)).toEqual({ a: 1, b: 1 });
  });

  it("groups existing pods' terms by what they select and follows their pods", () => {
    const cache = cluster();
    const anti = (name: string, node: string, group: string) => {
      const p = makePod(name, { nodeName: node });
      return {
        ...p,
        spec: {
          ...p.spec,
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                { labelSelector: { matchLabels: { group } }, topologyKey: ZONE },
              ],
            },
          },
        },
      };
    };
    const terms = () =>
      [...cache.snapshot().existingTerms('requiredAntiAffinity')].map((t) => [
        t.term.selector.toString(),
        Object.fromEntries(t.counts),
      ]);
    const x = anti('x', 'n1', 'g1');
    cache.addPod(x);
    cache.addPod(anti('y', 'n3', 'g1'));
    cache.addPod(anti('z', 'n2', 'g2'));
    expect(terms()).toEqual([
      ['group=g1', { a: 1, b: 1 }],
      ['group=g2', { a: 1 }],
    ]);
    cache.removePod(x);
    cache.updateNode(undefined, labelledNode('n2', { zone: 'b' }));
    expect(terms()).toEqual([
      ['group=g1', { b: 1 }],
      ['group=g2', { b: 1 }],
    ]);
    cache.removePod(anti('z', 'n2', 'g2'));
    expect(terms()).toEqual([['group=g1', { b: 1 }]]);
    expect([...cache.snapshot().existingTerms('preferredAffinity')]).toEqual([]);
  });

  it('agrees with a recount from scratch after random events', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const cache = new SchedulerCache();
    const zones = ['a', 'b', 'c'];
    const apps = ['web', 'db'];
    const q = webQuery(ZONE, ['rack', ZONE]);
    cache.snapshot().podCounts(q);
    cache.snapshot().domains(ZONE, ['rack', ZONE]);
    const pods = new Map<string, Pod>();
    for (let i = 0; i < 2000; i++) {
      const node = `n${rnd(8)}`;
      const op = rnd(5);
      if (op === 0) {
        const labels: Record<string, string> = { zone: zones[rnd(3)] as string };
        if (rnd(3) > 0) labels['rack'] = `r${rnd(2)}`;
        cache.addNode(labelledNode(node, labels));
      } else if (op === 1) cache.removeNode(labelledNode(node, {}));
      else if (op === 2 && pods.size > 0) {
        const name = [...pods.keys()][rnd(pods.size)] as string;
        cache.removePod(pods.get(name) as Pod);
        pods.delete(name);
      } else {
        const name = `p${rnd(40)}`;
        const p = web(name, node, { app: apps[rnd(2)] as string });
        cache.addPod(p);
        pods.set(name, p);
      }
      const s = cache.snapshot();
      const want = new Map<string, number>();
      const wantDomains = new Map<string, number>();
      for (const info of s.nodeInfos) {
        const l = info.node?.metadata.labels ?? {};
        if (l['rack'] === undefined || l['zone'] === undefined) continue;
        wantDomains.set(l['zone'], (wantDomains.get(l['zone']) ?? 0) + 1);
        let n = 0;
        for (const { pod } of info.pods.values()) if (q.matches(pod)) n++;
        if (n > 0) want.set(l['zone'], (want.get(l['zone']) ?? 0) + n);
      }
      expect(new Map(s.podCounts(q))).toEqual(want);
      expect(new Map(s.domains(ZONE, ['rack', ZONE]))).toEqual(wantDomains);
    }
  });

  it('keeps at most 64 queries, recounting a dropped one when asked again', () => {
    const cache = cluster();
    cache.addPod(web('a', 'n1'));
    const s = cache.snapshot();
    for (let i = 0; i < 70; i++) s.podCounts({ ...webQuery(), key: `q${i}` });
    cache.addPod(web('b', 'n3'));
    expect(Object.fromEntries(s.podCounts({ ...webQuery(), key: 'q0' }))).toEqual({ a: 1, b: 1 });
  });
});
