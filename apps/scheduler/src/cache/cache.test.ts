import { describe, expect, it } from 'vitest';
import { makeNode, makePod } from '../framework/testing/fixtures.js';
import type { Node, Pod } from '../framework/types.js';
import { SchedulerCache } from './cache.js';

const cpuOn = (cache: SchedulerCache, node: string) => cache.nodeInfo(node)?.requested.milliCPU;
const podsOn = (cache: SchedulerCache, node: string) => [...(cache.nodeInfo(node)?.pods.keys() ?? [])];
const names = (cache: SchedulerCache) => cache.snapshot().nodeInfos.map((n) => n.name);

describe('SchedulerCache', () => {
  it('folds assigned pods into their node', () => {
    const cache = new SchedulerCache();
    cache.addNode(makeNode('n1'));
    cache.addNode(makeNode('n2'));
    cache.addPod(makePod('a', { nodeName: 'n1', requests: { cpu: '1' } }));
    cache.addPod(makePod('b', { nodeName: 'n1', requests: { cpu: '500m' } }));
    cache.addPod(makePod('pending', { requests: { cpu: '9' } }));
    expect([cpuOn(cache, 'n1'), cpuOn(cache, 'n2')]).toEqual([1500, 0]);
    expect(cache.podCount()).toBe(2);
    expect(names(cache)).toEqual(['n1', 'n2']);
  });

  it('replaces a pod on update and on a repeated add', () => {
    const cache = new SchedulerCache();
    const a = makePod('a', { nodeName: 'n1', requests: { cpu: '1' } });
    cache.addPod(a);
    cache.updatePod(a, makePod('a', { nodeName: 'n1', requests: { cpu: '2' } }));
    cache.addPod(makePod('a', { nodeName: 'n1', requests: { cpu: '3' } }));
    expect(cpuOn(cache, 'n1')).toBe(3000);
    cache.removePod(a);
    expect(cpuOn(cache, 'n1')).toBeUndefined();
    expect(cache.podCount()).toBe(0);
  });

  it('counts an assumed pod until it is forgotten', () => {
    const cache = new SchedulerCache();
    cache.addNode(makeNode('n1'));
    const p = makePod('p', { requests: { cpu: '1' } });
    cache.assumePod(p, 'n1');
    expect([cache.isAssumed(p), cpuOn(cache, 'n1')]).toEqual([true, 1000]);
    expect(cache.nodeInfo('n1')?.pods.get('uid-p')?.pod.spec.nodeName).toBe('n1');
    expect(() => cache.assumePod(p, 'n1')).toThrow("pod uid-p is in the cache, so can't be assumed");
    cache.forgetPod(p);
    expect([cache.isAssumed(p), cpuOn(cache, 'n1'), cache.podCount()]).toEqual([false, 0, 0]);
  });

  it('confirms an assumed pod when the watch reports it, counting it once', () => {
    const cache = new SchedulerCache();
    cache.addNode(makeNode('n1'));
    const p = makePod('p', { requests: { cpu: '1' } });
    cache.assumePod(p, 'n1');
    cache.addPod(makePod('p', { nodeName: 'n1', requests: { cpu: '1' } }));
    expect([cache.isAssumed(p), cpuOn(cache, 'n1'), cache.assumedPodCount()]).toEqual([false, 1000, 0]);
    cache.forgetPod(p);
    expect(cpuOn(cache, 'n1')).toBe(1000);
  });

  it('moves an assumed pod the API server placed elsewhere', () => {
    const cache = new SchedulerCache();
    cache.addNode(makeNode('n1'));
    cache.addNode(makeNode('n2'));
    cache.assumePod(makePod('p', { requests: { cpu: '1' } }), 'n1');
    cache.addPod(makePod('p', { nodeName: 'n2', requests: { cpu: '1' } }));
    expect([cpuOn(cache, 'n1'), cpuOn(cache, 'n2')]).toEqual([0, 1000]);
  });

  it('keeps a deleted node while pods remain on it, without scheduling to it', () => {
    const cache = new SchedulerCache();
    const n1 = makeNode('n1');
    cache.addNode(n1);
    cache.addNode(makeNode('n2'));
    const a = makePod('a', { nodeName: 'n1', requests: { cpu: '1' } });
    cache.addPod(a);
    cache.removeNode(n1);
    expect(names(cache)).toEqual(['n2']);
    expect(cache.snapshot().get('n1')).toBeUndefined();
    expect(podsOn(cache, 'n1')).toEqual(['uid-a']);
    cache.addNode(n1);
    expect(names(cache)).toEqual(['n1', 'n2']);
    expect(cpuOn(cache, 'n1')).toBe(1000);
    cache.removeNode(n1);
    cache.removePod(a);
    expect(cache.nodeInfo('n1')).toBeUndefined();
  });

  it('accepts pods before their node and counts them once the node arrives', () => {
    const cache = new SchedulerCache();
    cache.addPod(makePod('early', { nodeName: 'late', requests: { memory: '1Gi' } }));
    expect(cache.nodeCount()).toBe(0);
    cache.addNode(makeNode('late'));
    expect(cache.snapshot().get('late')?.requested.memory).toBe(1024 ** 3);
  });

  it('reuses the node list until nodes come or go', () => {
    const cache = new SchedulerCache();
    cache.addNode(makeNode('n1'));
    const first = cache.snapshot().nodeInfos;
    cache.addPod(makePod('a', { nodeName: 'n1' }));
    cache.updateNode(makeNode('n1'), makeNode('n1', { cpu: '8' }));
    expect(cache.snapshot().nodeInfos).toBe(first);
    expect(cache.snapshot().get('n1')?.allocatable.milliCPU).toBe(8000);
    cache.addNode(makeNode('n2'));
    const second = cache.snapshot().nodeInfos;
    expect(second).not.toBe(first);
    expect(first.map((n) => n.name)).toEqual(['n1']);
  });

  it('keeps exact totals over 5,000 nodes and 10,000 pods', () => {
    const cache = new SchedulerCache();
    for (let i = 0; i < 5000; i++) cache.addNode(makeNode(`n${i}`, { cpu: '8' }));
    const pods = Array.from({ length: 10_000 }, (_, i) =>
      makePod(`p${i}`, { nodeName: `n${i % 5000}`, requests: { cpu: '100m', memory: '64Mi' } }),
    );
    for (const p of pods) cache.addPod(p);
    expect(cache.podCount()).toBe(10_000);
    expect(cache.nodeInfo('n4999')?.requested).toMatchObject({
      milliCPU: 200,
      memory: 128 * 1024 ** 2,
      pods: 2,
    });
    for (const p of pods.slice(0, 5000)) cache.removePod(p);
    const snapshot = cache.snapshot();
    expect(snapshot.numNodes()).toBe(5000);
    expect(snapshot.nodeInfos.every((n) => n.requested.milliCPU === 100 && n.pods.size === 1)).toBe(true);
  });

  it('indexes nodes holding pods with pod affinity and required anti-affinity', () => {
    const cache = new SchedulerCache();
    for (const n of ['n1', 'n2', 'n3']) cache.addNode(makeNode(n));
    const term = { labelSelector: { matchLabels: { app: 'a' } }, topologyKey: 'zone' };
    const withAffinity = (name: string, node: string, key: 'podAffinity' | 'podAntiAffinity'): Pod => {
      const p = makePod(name, { nodeName: node });
      return {
        ...p,
        spec: { ...p.spec, affinity: { [key]: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } },
      };
    };
    const affine = withAffinity('aff', 'n1', 'podAffinity');
    const anti = withAffinity('anti', 'n2', 'podAntiAffinity');
    cache.addPod(makePod('plain', { nodeName: 'n3' }));
    const lists = () => {
      const s = cache.snapshot();
      const out = [
        s
          .havePodsWithAffinity()
          .map((n) => n.name)
          .sort(),
        s.havePodsWithRequiredAntiAffinity().map((n) => n.name),
      ];
      // The quick answers agree with the lists.
      expect([s.anyPodsWithAffinity(), s.anyPodsWithRequiredAntiAffinity()]).toEqual(
        out.map((l) => l.length > 0),
      );
      return out;
    };
    expect(lists()).toEqual([[], []]);
    cache.addPod(affine);
    cache.assumePod(withAffinity('anti', 'n2', 'podAntiAffinity'), 'n2');
    expect(lists()).toEqual([['n1', 'n2'], ['n2']]);
    expect(
      cache.nodeInfo('n2')?.podsWithRequiredAntiAffinity.get('uid-anti')?.affinity.requiredAntiAffinity,
    ).toHaveLength(1);
    // The same pod updated without affinity leaves the index.
    cache.updatePod(affine, makePod('aff', { nodeName: 'n1' }));
    cache.forgetPod(anti);
    expect(lists()).toEqual([[], []]);
  });

  it("counts the nodes reporting each image, following nodes' status", () => {
    const cache = new SchedulerCache();
    const withImages = (name: string, ...names: string[]): Node => ({
      ...makeNode(name),
      status: { ...makeNode(name).status, images: [{ names, sizeBytes: 100 }] },
    });
    cache.addNode(withImages('n1', 'app:1', 'app@sha256:x'));
    cache.addNode(withImages('n2', 'app:1'));
    const s = () => cache.snapshot();
    expect([
      s().imageNumNodes('app:1'),
      s().imageNumNodes('app@sha256:x'),
      s().imageNumNodes('db:1'),
    ]).toEqual([2, 1, 0]);
    cache.updateNode(undefined, withImages('n2', 'db:1'));
    cache.removeNode(withImages('n1'));
    expect([s().imageNumNodes('app:1'), s().imageNumNodes('db:1')]).toEqual([0, 1]);
    expect(cache.nodeInfo('n2')?.images.get('db:1')).toBe(100);
  });
});
