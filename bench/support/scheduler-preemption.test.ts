import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, NS, pool } from './scheduler-cluster.js';
import { fillNodesWithVictims, preemptionWrites } from './scheduler-preemption.js';

interface PodList {
  items: {
    metadata: { name: string };
    spec: { nodeName?: string };
    status?: { nominatedNodeName?: string; conditions?: { type: string; status: string }[] };
  }[];
}
interface EventList {
  items: { reason: string; regarding: { name: string }; related?: { name: string } }[];
}

// The writes-only baseline is only a ceiling if the API server takes every write it makes: a
// refused patch or a missing victim would make it cheaper than the scheduler's real work.
describe("the preemption workload's writes-only baseline", () => {
  let c: Cluster;
  const NODES = 3;
  beforeAll(async () => {
    c = await Cluster.start(NODES);
  });
  afterAll(async () => {
    await c?.stop();
  });

  it('makes every write the scheduler makes per preemptor, and the server takes each one', async () => {
    expect(await fillNodesWithVictims(c)).toBe(NODES);
    await pool(NODES, NODES, preemptionWrites(c));
    expect(c.errors).toBe(0);

    const pods = await c.get<PodList>(`/api/v1/namespaces/${NS}/pods`);
    const byName = new Map(pods.items.map((p) => [p.metadata.name, p]));
    for (let i = 0; i < NODES; i++) {
      expect(byName.has(`low-${i}`)).toBe(false);
      const p = byName.get(`pod-${i}`);
      expect(p?.spec.nodeName).toBe(`node-${i}`);
      expect(p?.status?.nominatedNodeName).toBe(`node-${i}`);
    }

    const events = await c.get<EventList>(`/apis/events.k8s.io/v1/namespaces/${NS}/events`);
    const seen = events.items.map((e) => `${e.reason} ${e.regarding.name} ${e.related?.name ?? ''}`).sort();
    const expected = Array.from({ length: NODES }, (_, i) => [
      `FailedScheduling pod-${i} `,
      `Preempted low-${i} pod-${i}`,
      `Scheduled pod-${i} `,
    ]).flat();
    expect(seen).toEqual(expected.sort());
  });
});
