import type { PortRange } from '@keel/flags';
import type { Storage } from '@keel/storage';
import { formatIp, formatIpNet, ipNetSize, parseIp, parseIpNet, type IpNet } from '../../options/ip-range.js';
import { AlreadyAllocatedError, RangeStore } from './range-store.js';

export type IPFamily = 'IPv4' | 'IPv6';

/** The allocator's refusals, with upstream's texts (ipallocator / portallocator). */
export class AllocationError extends Error {}

/** Upstream's bitmap for an IPv6 range holds at most this many addresses. */
const MAX_V6_SIZE = 65536;

/**
 * The cluster IPs of one --service-cluster-ip-range entry: the network address is never used, nor
 * the IPv4 broadcast address; offset 0 (the first usable address) is the platform Service's and
 * is only handed out when asked for by name.
 */
export class IpRange {
  readonly family: IPFamily;
  readonly cidr: string;
  private readonly net: IpNet;
  private readonly store: RangeStore;

  constructor(storage: Storage, key: string, cidr: string) {
    this.net = parseIpNet(cidr);
    this.cidr = formatIpNet(this.net);
    this.family = this.net.family === 4 ? 'IPv4' : 'IPv6';
    const total = ipNetSize(this.net);
    const v6 = total < BigInt(MAX_V6_SIZE) ? Number(total) : MAX_V6_SIZE;
    let size = this.net.family === 4 ? Number(total) - 2 : v6 - 1;
    if (size < 0) size = 0;
    this.store = new RangeStore(storage, key, this.cidr, size, new Set([0]));
  }

  /** The first usable address (upstream's `.1`), which the platform Service takes. */
  get firstIP(): string {
    return formatIp(this.net.family, this.net.network + 1n);
  }

  /** The offset of an IP in this range, or undefined when it lies outside. */
  offsetOf(ip: string): number | undefined {
    const parsed = parseIp(ip);
    if (!parsed || parsed.family !== this.net.family) return undefined;
    const offset = parsed.value - this.net.network - 1n;
    return offset >= 0n && offset < BigInt(this.store.size) ? Number(offset) : undefined;
  }

  async allocate(ip: string, dryRun: boolean): Promise<void> {
    const offset = this.offsetOf(ip);
    if (offset === undefined) {
      throw new AllocationError(
        `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.cidr}`,
      );
    }
    try {
      await this.store.allocate(offset, dryRun);
    } catch (err) {
      if (err instanceof AlreadyAllocatedError) throw new AllocationError('provided IP is already allocated');
      throw err;
    }
  }

  async allocateNext(dryRun: boolean): Promise<string> {
    const offset = await this.store.allocateNext(dryRun);
    return formatIp(this.net.family, this.net.network + 1n + BigInt(offset));
  }

  async release(ips: readonly string[]): Promise<void> {
    await this.store.release(ips.map((ip) => this.offsetOf(ip)).filter((o): o is number => o !== undefined));
  }

  async mark(ips: readonly string[]): Promise<void> {
    await this.store.mark(ips.map((ip) => this.offsetOf(ip)).filter((o): o is number => o !== undefined));
  }

  /** See RangeStore.repair; `held` lists the IPs Services hold. */
  repair(
    held: () => Promise<readonly string[]>,
    leaks: Map<number, number>,
    leakRounds: number,
  ): Promise<boolean> {
    return this.store.repair(
      async () =>
        new Set((await held()).map((ip) => this.offsetOf(ip)).filter((o): o is number => o !== undefined)),
      leaks,
      leakRounds,
    );
  }

  async taken(): Promise<string[]> {
    return (await this.store.taken()).map((o) =>
      formatIp(this.net.family, this.net.network + 1n + BigInt(o)),
    );
  }
}

/** The node ports of --service-node-port-range. */
export class PortRangeAllocator {
  private readonly store: RangeStore;
  readonly spec: string;

  constructor(
    storage: Storage,
    key: string,
    private readonly range: PortRange,
  ) {
    this.spec = `${range.base}-${range.base + range.size - 1}`;
    this.store = new RangeStore(storage, key, this.spec, range.size);
  }

  contains(port: number): boolean {
    return port >= this.range.base && port < this.range.base + this.range.size;
  }

  async allocate(port: number, dryRun: boolean): Promise<void> {
    if (!this.contains(port)) {
      throw new AllocationError(
        `provided port is not in the valid range. The range of valid ports is ${this.spec}`,
      );
    }
    try {
      await this.store.allocate(port - this.range.base, dryRun);
    } catch (err) {
      if (err instanceof AlreadyAllocatedError)
        throw new AllocationError('provided port is already allocated');
      throw err;
    }
  }

  async allocateNext(dryRun: boolean): Promise<number> {
    return this.range.base + (await this.store.allocateNext(dryRun));
  }

  async release(ports: readonly number[]): Promise<void> {
    await this.store.release(ports.filter((p) => this.contains(p)).map((p) => p - this.range.base));
  }

  async mark(ports: readonly number[]): Promise<void> {
    await this.store.mark(ports.filter((p) => this.contains(p)).map((p) => p - this.range.base));
  }

  /** See RangeStore.repair; `held` lists the node ports Services hold. */
  repair(
    held: () => Promise<readonly number[]>,
    leaks: Map<number, number>,
    leakRounds: number,
  ): Promise<boolean> {
    return this.store.repair(
      async () => new Set((await held()).filter((p) => this.contains(p)).map((p) => p - this.range.base)),
      leaks,
      leakRounds,
    );
  }

  async taken(): Promise<number[]> {
    return (await this.store.taken()).map((o) => o + this.range.base);
  }
}

/** Upstream's keys: /registry/ranges/serviceips (and the secondary family's), /servicenodeports. */
export const RANGE_KEYS = {
  primaryIPs: '/ranges/serviceips',
  secondaryIPs: '/ranges/secondaryserviceips',
  nodePorts: '/ranges/servicenodeports',
} as const;

export interface ServiceRanges {
  /** By family; the primary (first --service-cluster-ip-range entry) is `primary`. */
  readonly ips: ReadonlyMap<IPFamily, IpRange>;
  readonly primary: IpRange;
  readonly nodePorts: PortRangeAllocator;
}

export function serviceRanges(
  storage: Storage,
  config: { serviceClusterIPRanges: readonly string[]; serviceNodePortRange: PortRange },
): ServiceRanges {
  const [first, second] = config.serviceClusterIPRanges;
  if (!first) throw new Error('no --service-cluster-ip-range');
  const primary = new IpRange(storage, RANGE_KEYS.primaryIPs, first);
  const ips = new Map<IPFamily, IpRange>([[primary.family, primary]]);
  if (second) {
    const secondary = new IpRange(storage, RANGE_KEYS.secondaryIPs, second);
    ips.set(secondary.family, secondary);
  }
  return {
    ips,
    primary,
    nodePorts: new PortRangeAllocator(storage, RANGE_KEYS.nodePorts, config.serviceNodePortRange),
  };
}
