import { setTimeout as sleep } from 'node:timers/promises';
import { newUid } from '@keel/apimachinery';
import { defaultService, type Endpoints, type Service } from '@keel/coreapi';
import { isStorageError, type Storage } from '@keel/storage';
import type { EndpointReconcilerType } from '../options/service-network-options.js';
import type { WriteTransaction } from '../registry/store-types.js';
import { ServiceAllocator } from '../resources/services/allocations.js';
import type { ServiceRanges } from '../resources/services/ranges.js';
import { AllocationRepair } from '../resources/services/repair.js';

/** The API server's own Service: upstream's `kubernetes`, in the spec's neutral naming. */
export const PLATFORM_SERVICE = 'platform';
/** Upstream's master lease TTL and endpoint reconcile interval. */
const LEASE_TTL_SECONDS = 15;
const RECONCILE_INTERVAL_MS = 10_000;
/** Upstream's repair interval for the cluster IP and node port bitmaps. */
const REPAIR_INTERVAL_MS = 3 * 60_000;

export interface PlatformServiceOptions {
  readonly ranges: ServiceRanges;
  /** --master-service-namespace. */
  readonly namespace: string;
  /** --secure-port: the Service's target port and the endpoints' port. */
  readonly securePort: number;
  /** --platform-service-node-port; 0 keeps the Service of type ClusterIP. */
  readonly nodePort: number;
  /** --advertise-address: what this server publishes in the endpoints. */
  readonly advertiseAddress: string;
  readonly reconciler: EndpointReconcilerType;
  readonly onError?: (err: unknown) => void;
}

const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const PORT_NAME = 'https';

/**
 * Upstream's bootstrap controller for the `platform` Service: the Service (cluster IP the first
 * address of the primary range, port 443 to --secure-port, NodePort when
 * --platform-service-node-port is set) is created when missing and its ports and type put back
 * when they differ; its Endpoints follow --endpoint-reconciler-type: `lease` (every server renews
 * a TTL'd lease of its address under /masterleases/ and the endpoints list the live ones; a
 * server that stops removes its own), `master-count` (this server's address, as upstream with
 * --apiserver-count=1) or `none`. As upstream's bootstrap controller did, it also runs the
 * repair pass of the allocation bitmaps at start and every three minutes.
 */
export class PlatformServiceController {
  private readonly allocator: ServiceAllocator;
  private readonly repair: AllocationRepair;
  private lastRepair = 0;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly opts: PlatformServiceOptions,
  ) {
    this.allocator = new ServiceAllocator(opts.ranges);
    this.repair = new AllocationRepair(storage, opts.ranges);
  }

  private async repairIfDue(): Promise<void> {
    if (Date.now() - this.lastRepair < REPAIR_INTERVAL_MS) return;
    await this.repair.runOnce();
    this.lastRepair = Date.now();
  }

  private get serviceKey(): string {
    return `/services/${this.opts.namespace}/${PLATFORM_SERVICE}`;
  }

  private get endpointsKey(): string {
    return `/endpoints/${this.opts.namespace}/${PLATFORM_SERVICE}`;
  }

  private leaseKey(ip: string): string {
    return `/masterleases/${ip}`;
  }

  /** The Service as this server wants it (ports and type); the allocator fills IP families. */
  desiredSpec(): NonNullable<Service['spec']> {
    const ip = this.opts.ranges.primary.firstIP;
    const nodePort = this.opts.nodePort;
    const svc: Service = {
      metadata: {},
      spec: {
        ports: [
          {
            name: PORT_NAME,
            protocol: 'TCP',
            port: 443,
            targetPort: this.opts.securePort,
            ...(nodePort ? { nodePort } : {}),
          },
        ],
        clusterIP: ip,
        clusterIPs: [ip],
        type: nodePort ? 'NodePort' : 'ClusterIP',
        sessionAffinity: 'None',
      },
    };
    defaultService(svc);
    return svc.spec ?? {};
  }

  /** Creates the Service when it is missing; puts its ports and type back when they differ. */
  async ensureService(): Promise<void> {
    const existing = await this.storage.get<Service>(this.serviceKey, { ignoreNotFound: true });
    const want = this.desiredSpec();
    if (!existing) {
      const svc: Service = {
        metadata: {
          name: PLATFORM_SERVICE,
          namespace: this.opts.namespace,
          uid: newUid(),
          creationTimestamp: now(),
          labels: { component: 'apiserver', provider: 'platform' },
        },
        spec: want,
      };
      let txn: WriteTransaction;
      try {
        txn = await this.allocator.beginCreate(svc, false);
      } catch (err) {
        // Another server reserved the address between our read and our reservation and creates
        // the Service next: give it a moment, and its allocation stands. Anything else (a user's
        // Service holding the address) is a real failure, retried by the next round.
        for (let i = 0; i < 10; i++) {
          if (await this.storage.get(this.serviceKey, { ignoreNotFound: true })) return;
          await sleep(100);
        }
        throw err;
      }
      try {
        await this.storage.create(this.serviceKey, svc);
      } catch (err) {
        await txn.revert();
        // Another server created it first: its allocation stands.
        if (!isStorageError(err, 'KeyExists')) throw err;
        return;
      }
      await txn.commit();
      return;
    }
    const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
    const s = existing.spec ?? {};
    if (s.type === want.type && same(s.ports, want.ports)) return;
    const next: Service = {
      ...existing,
      spec: { ...s, type: want.type ?? 'ClusterIP', ports: want.ports ?? [] },
    };
    if (want.type !== 'NodePort') delete next.spec?.externalTrafficPolicy;
    else if (next.spec) next.spec.externalTrafficPolicy ??= 'Cluster';
    const txn = await this.allocator.beginUpdate(next, existing, false);
    try {
      await this.storage.guaranteedUpdate<Service>(
        this.serviceKey,
        () => {
          delete next.metadata.resourceVersion;
          return next;
        },
        { precondition: { resourceVersion: existing.metadata.resourceVersion ?? '' } },
      );
    } catch (err) {
      await txn.revert();
      // Changed meanwhile: the next round decides again.
      if (!isStorageError(err, 'Conflict')) throw err;
      return;
    }
    await txn.commit();
  }

  /** Writes the endpoints' addresses when they differ (none: removes the subsets). */
  private async writeEndpoints(ips: readonly string[]): Promise<void> {
    const subsets =
      ips.length === 0
        ? []
        : [
            {
              addresses: ips.map((ip) => ({ ip })),
              ports: [{ name: PORT_NAME, port: this.opts.securePort, protocol: 'TCP' }],
            },
          ];
    await this.storage.guaranteedUpdate<Endpoints>(
      this.endpointsKey,
      (current) => {
        const meta = current?.metadata ?? { uid: newUid(), creationTimestamp: now() };
        const { resourceVersion: _rv, ...rest } = meta;
        const ep: Endpoints = {
          metadata: { ...rest, name: PLATFORM_SERVICE, namespace: this.opts.namespace },
          ...(subsets.length > 0 ? { subsets } : {}),
        };
        return ep;
      },
      { ignoreNotFound: true },
    );
  }

  private async liveServers(): Promise<string[]> {
    const leases = await this.storage.list<{ metadata: { name?: string } }>('/masterleases');
    return leases.items.map((l) => l.metadata.name ?? '').filter((ip) => ip !== '');
  }

  /** One round of the configured reconciler. */
  async reconcileEndpoints(): Promise<void> {
    const self = this.opts.advertiseAddress;
    switch (this.opts.reconciler) {
      case 'none':
        return;
      case 'master-count': {
        const current = await this.storage.get<Endpoints>(this.endpointsKey, { ignoreNotFound: true });
        const ips = (current?.subsets ?? []).flatMap((s) => (s.addresses ?? []).map((a) => a.ip ?? ''));
        if (ips.length === 1 && ips[0] === self) return;
        await this.writeEndpoints([self]);
        return;
      }
      case 'lease': {
        await this.storage.guaranteedUpdate(
          this.leaseKey(self),
          () => ({ metadata: { name: self }, renewTime: new Date().toISOString() }),
          { ignoreNotFound: true, ttlSeconds: LEASE_TTL_SECONDS },
        );
        await this.writeEndpoints(await this.liveServers());
        return;
      }
    }
  }

  /** The first round (the hook finishes with it), then one every interval until `signal` aborts. */
  async start(signal: AbortSignal): Promise<void> {
    // As upstream: a failed first repair leaves the server useless and fails start-up; a Service
    // or endpoints round that fails is reported and retried, never fatal.
    await this.repairIfDue();
    try {
      await this.round();
    } catch (err) {
      this.opts.onError?.(err);
    }
    this.loop ??= (async () => {
      while (!signal.aborted) {
        try {
          await sleep(RECONCILE_INTERVAL_MS, undefined, { signal });
        } catch {
          return;
        }
        try {
          await this.round();
        } catch (err) {
          if (!signal.aborted) this.opts.onError?.(err);
        }
      }
    })();
  }

  private async round(): Promise<void> {
    await this.repairIfDue();
    await this.ensureService();
    await this.reconcileEndpoints();
  }

  /** At shutdown: a lease server takes its address out at once rather than when its lease expires. */
  async stop(): Promise<void> {
    // Never started (the store was down): nothing of this server's is published.
    if (!this.loop) return;
    await this.loop;
    if (this.opts.reconciler !== 'lease') return;
    try {
      await this.storage.delete(this.leaseKey(this.opts.advertiseAddress));
    } catch (err) {
      if (!isStorageError(err, 'KeyNotFound')) throw err;
    }
    await this.writeEndpoints(await this.liveServers());
  }
}
