/** The scheduler e2e fixtures (shared with the fault suite) and the one assertion helper they use. */
import { type SchedulerCluster as Cluster, eventually, scheduledCounts } from '@keel/testing';
import { expect } from 'vitest';

export {
  SchedulerCluster as Cluster,
  FAST_ELECTION,
  eventually,
  scheduledCounts,
  type SchedulerEvent as Event,
  type SchedulerPod as Pod,
} from '@keel/testing';

/** Every pod in `namespace` is bound, and bound once according to the Scheduled events. */
export async function expectAllBoundOnce(
  cluster: Cluster,
  namespace: string,
  names: readonly string[],
): Promise<void> {
  const pods = await eventually(
    async () => {
      const all = await cluster.pods(namespace);
      return names.every((n) => all.some((p) => p.metadata.name === n && p.spec.nodeName)) && all;
    },
    30_000,
    `pods of ${namespace} to be bound`,
  );
  const counts = await eventually(
    async () => {
      const c = scheduledCounts(await cluster.events(namespace));
      return names.every((n) => c.has(n)) && c;
    },
    10_000,
    'Scheduled events',
  );
  for (const n of names) {
    expect(counts.get(n), `Scheduled events of ${n}`).toBe(1);
    expect(pods.find((p) => p.metadata.name === n)?.spec.nodeName).toBeTruthy();
  }
}
