/**
 * The scheduler's algorithm alone, in this process: a cache of `nodes` nodes (hostname and zone
 * labels) and `pods` pods of one shape scheduled one after another with kube's default profile,
 * each assumed on its node as the scheduler does before binding, with the daemon's metrics
 * recording. No API server, no I/O: the ceiling the scheduling cycle puts on throughput.
 */
import { SchedulerCache } from '../../apps/scheduler/src/cache/cache.js';
import type { Node, Pod } from '../../apps/scheduler/src/framework/types.js';
import { PodScheduler } from '../../apps/scheduler/src/scheduling/schedule-one.js';
import { defaultFramework } from '../../apps/scheduler/src/scheduling/testing/default-framework.js';
import { SchedulerMetrics } from '../../apps/scheduler/src/server/metrics.js';
import { NS, ZONES, type PodShape } from './scheduler-cluster.js';

function node(i: number): Node {
  const resources = { cpu: '32', memory: '128Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  const name = `node-${i}`;
  return {
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${i % ZONES}` },
    },
    spec: {},
    status: { capacity: resources, allocatable: resources },
  };
}

function pod(i: number, shape: PodShape): Pod {
  return {
    metadata: {
      name: `pod-${i}`,
      namespace: NS,
      uid: `uid-${i}`,
      labels: { app: 'bench', ...shape.labels?.(i) },
    },
    spec: {
      ...shape.spec?.(i),
      containers: [
        {
          name: 'app',
          image: 'registry.example/app:1',
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
        },
      ],
    },
  };
}

/** Cycles per second and how many pods found no node. */
export function cyclesPerSecond(
  nodes: number,
  pods: number,
  shape: PodShape,
): { perS: number; failed: number } {
  const cache = new SchedulerCache();
  for (let i = 0; i < nodes; i++) cache.addNode(node(i));
  const fwk = defaultFramework();
  // As in the daemon: extension point timings always, plugin timings in kube's 10% of cycles.
  const metrics = new SchedulerMetrics({
    disabledMetrics: [],
    showHiddenMetricsForVersion: '',
    showHiddenMetrics: false,
    allowMetricLabels: [],
  });
  fwk.recordMetrics(metrics.framework);
  const scheduler = new PodScheduler({ percentageOfNodesToScore: 0 });
  let failed = 0;
  const t0 = performance.now();
  for (let i = 0; i < pods; i++) {
    const p = pod(i, shape);
    const out = scheduler.schedulePod(fwk, cache.snapshot(), p);
    if (out.ok) cache.assumePod(p, out.result.suggestedHost);
    else failed++;
  }
  return { perS: pods / ((performance.now() - t0) / 1000), failed };
}
