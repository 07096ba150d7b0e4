import type { Service } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import { clusterIPsOf, nodePortsOf } from './allocations.js';
import type { ServiceRanges } from './ranges.js';

/** Upstream's numRepairsBeforeLeakCleanup: a leak is reclaimed on the third pass that sees it. */
export const LEAK_ROUNDS = 3;

/**
 * Upstream's cluster IP and node port repair controllers: brings each range's bitmap in line
 * with the Services in the store. It marks what a Service holds but the bitmap lacks (the range
 * flags changed, a bitmap was lost) and reclaims what no Service holds once several passes in a
 * row saw it so (a server that died between allocating and storing).
 */
export class AllocationRepair {
  private readonly leaks = new Map<string, Map<number, number>>();

  constructor(
    private readonly storage: Storage,
    private readonly ranges: ServiceRanges,
  ) {}

  private leaksOf(key: string): Map<number, number> {
    let m = this.leaks.get(key);
    if (!m) this.leaks.set(key, (m = new Map<number, number>()));
    return m;
  }

  private async specs(): Promise<NonNullable<Service['spec']>[]> {
    const listed = await this.storage.list<Service>('/services');
    return listed.items.map((s) => s.spec ?? {});
  }

  /** One pass over every range; a range changed meanwhile is left to the next pass. */
  async runOnce(): Promise<void> {
    for (const [family, range] of this.ranges.ips) {
      await range.repair(
        async () => (await this.specs()).flatMap((s) => clusterIPsOf(s)),
        this.leaksOf(family),
        LEAK_ROUNDS,
      );
    }
    await this.ranges.nodePorts.repair(
      async () => (await this.specs()).flatMap((s) => nodePortsOf(s)),
      this.leaksOf('nodePorts'),
      LEAK_ROUNDS,
    );
  }
}
