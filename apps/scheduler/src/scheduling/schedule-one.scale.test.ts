import { describe, expect, it } from 'vitest';
import { SchedulerCache } from '../cache/cache.js';
import { makeNode, makePod } from '../framework/testing/fixtures.js';
import { PodScheduler } from './schedule-one.js';
import { defaultFramework } from './testing/default-framework.js';

/**
 * Behaviour at the size Keel must handle, not a timing assertion: 5,000 nodes already running
 * 10,000 pods, then 100 pods scheduled one after another with the default profile.
 */
describe('scheduling at scale', () => {
  it('places 100 pods on 5,000 nodes holding 10,000 pods', () => {
    const cache = new SchedulerCache();
    for (let i = 0; i < 5000; i++) {
      cache.addNode(
        makeNode(`node-${i}`, {
          cpu: '8',
          memory: '32Gi',
          labels: { 'topology.kubernetes.io/zone': `zone-${i % 3}` },
          ...(i % 10 === 0 ? { taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] } : {}),
        }),
      );
    }
    for (let i = 0; i < 10_000; i++) {
      cache.addPod(
        makePod(`running-${i}`, { nodeName: `node-${i % 5000}`, requests: { cpu: '500m', memory: '1Gi' } }),
      );
    }

    const fwk = defaultFramework();
    const scheduler = new PodScheduler({ percentageOfNodesToScore: 0 });
    const hosts: string[] = [];
    const started = performance.now();
    for (let i = 0; i < 100; i++) {
      const pod = makePod(`new-${i}`, {
        requests: { cpu: '1', memory: '2Gi' },
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 10,
              preference: {
                matchExpressions: [
                  { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-1'] },
                ],
              },
            },
          ],
        },
      });
      const out = scheduler.schedulePod(fwk, cache.snapshot(), pod);
      if (!out.ok) throw new Error(out.message);
      // Adaptive percentage: 50 − 5000/125 = 10% → 500 feasible nodes per cycle.
      expect(out.result.feasibleNodes).toBe(500);
      cache.assumePod(pod, out.result.suggestedHost);
      hosts.push(out.result.suggestedHost);
    }
    const elapsed = performance.now() - started;

    expect(cache.assumedPodCount()).toBe(100);
    expect(cache.podCount()).toBe(10_100);
    expect(new Set(hosts).size).toBe(100);
    for (const h of hosts) {
      const n = Number(h.slice('node-'.length));
      expect(n % 3).toBe(1); // the preferred zone
      expect(n % 10).not.toBe(0); // never a tainted node
    }
    // Logged, not asserted: machines differ.
    console.log(`100 cycles over 5,000 nodes: ${elapsed.toFixed(0)} ms`);
  });
});
