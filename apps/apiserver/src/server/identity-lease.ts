import { createHash, randomUUID } from 'node:crypto';
import { hostname as osHostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatMicroTime, formatTime, microTimeFromDate, newUid } from '@keel/apimachinery';
import { isStorageError, type Storage } from '@keel/storage';

/**
 * API server identity (the APIServerIdentity gate): each API server keeps a Lease in
 * platform-system named after its host, renewed every --identity-lease-renew-interval-seconds
 * and valid for --identity-lease-duration-seconds, so clients can count the servers sharing a
 * store (`kubectl -n platform-system get lease -l apiserver.kubernetes.io/identity=kube-apiserver`).
 * Leases of servers that stopped renewing are deleted by whichever server is still running.
 */

export const IDENTITY_LEASE_NAMESPACE = 'platform-system';
export const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';
export const IDENTITY_COMPONENT = 'kube-apiserver';
const HOSTNAME_LABEL = 'kubernetes.io/hostname';
/** How often expired identity leases are collected, as upstream's IdentityLeaseGCPeriod. */
const GC_PERIOD_MS = 3600_000;

export interface IdentityLeaseOptions {
  readonly durationSeconds: number;
  readonly renewIntervalSeconds: number;
  /** The OS host name by default; a restarted server on the same host takes over its lease. */
  readonly hostname?: string;
  readonly onError?: (err: unknown) => void;
}

interface Lease {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: {
    name: string;
    namespace: string;
    uid?: string;
    creationTimestamp?: string;
    labels?: Record<string, string>;
  };
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string };
}

/**
 * Upstream's APIServerID: `apiserver-` and the lower-case, unpadded base32 of the first 16
 * bytes of a SHA-256 over the length-prefixed host name and component, so the name is stable per
 * host and never collides with a leader-election lease.
 */
export function apiServerId(hostname: string): string {
  const parts = [hostname, IDENTITY_COMPONENT].map((p) => {
    const bytes = Buffer.from(p, 'utf8');
    const len = Buffer.alloc(2);
    len.writeUInt16BE(bytes.length);
    return Buffer.concat([len, bytes]);
  });
  const digest = createHash('sha256').update(Buffer.concat(parts)).digest().subarray(0, 16);
  return `apiserver-${base32(digest)}`;
}

function base32(bytes: Uint8Array): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const b of bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += alphabet[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31];
  return out;
}

const leaseKey = (name: string) => `/leases/${IDENTITY_LEASE_NAMESPACE}/${name}`;

export function isExpired(lease: Lease, nowMs: number): boolean {
  const { renewTime, leaseDurationSeconds } = lease.spec;
  if (renewTime === undefined || leaseDurationSeconds === undefined) return true;
  return Date.parse(renewTime) + leaseDurationSeconds * 1000 < nowMs;
}

export class IdentityLeaseController {
  readonly name: string;
  readonly holderIdentity: string;
  private readonly hostname: string;

  constructor(
    private readonly storage: Storage,
    private readonly options: IdentityLeaseOptions,
  ) {
    this.hostname = options.hostname ?? osHostname();
    this.name = apiServerId(this.hostname);
    this.holderIdentity = `${this.name}_${randomUUID()}`;
  }

  /** One heartbeat: creates the lease, or takes it over and renews it. */
  async renew(nowMs = Date.now()): Promise<void> {
    await this.storage.guaranteedUpdate<Lease>(
      leaseKey(this.name),
      (current) => ({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          ...(current?.metadata ?? {
            uid: newUid(),
            creationTimestamp: formatTime(microTimeFromDate(new Date(nowMs))) ?? '',
          }),
          name: this.name,
          namespace: IDENTITY_LEASE_NAMESPACE,
          labels: {
            ...current?.metadata.labels,
            [IDENTITY_LABEL]: IDENTITY_COMPONENT,
            [HOSTNAME_LABEL]: this.hostname,
          },
        },
        spec: {
          ...current?.spec,
          holderIdentity: this.holderIdentity,
          leaseDurationSeconds: this.options.durationSeconds,
          renewTime: formatMicroTime(microTimeFromDate(new Date(nowMs))) ?? '',
        },
      }),
      { ignoreNotFound: true },
    );
  }

  /** Deletes the identity leases of servers that stopped renewing them (not other leases). */
  async collectExpired(nowMs = Date.now()): Promise<string[]> {
    const { items } = await this.storage.list<Lease>(`/leases/${IDENTITY_LEASE_NAMESPACE}`);
    const deleted: string[] = [];
    for (const lease of items) {
      if (lease.metadata.labels?.[IDENTITY_LABEL] !== IDENTITY_COMPONENT || !isExpired(lease, nowMs))
        continue;
      try {
        // Checked again against the stored state, so a lease renewed meanwhile survives.
        await this.storage.delete<Lease>(leaseKey(lease.metadata.name), {
          validate: (current) => {
            if (!isExpired(current, Date.now())) throw new Error('renewed');
          },
        });
        deleted.push(lease.metadata.name);
      } catch (err) {
        if (!isStorageError(err, 'KeyNotFound') && !(err instanceof Error && err.message === 'renewed'))
          throw err;
      }
    }
    return deleted;
  }

  /** Renews until `signal` aborts, with upstream's 4% jitter; resolves once the lease exists. */
  async startRenewing(signal: AbortSignal): Promise<void> {
    await this.renew();
    void this.loop(signal, this.options.renewIntervalSeconds * 1000, 0.04, () => this.renew());
  }

  /** Collects expired identity leases now, then every hour until `signal` aborts. */
  async startCollecting(signal: AbortSignal): Promise<void> {
    await this.collectExpired();
    void this.loop(signal, GC_PERIOD_MS, 0, () => this.collectExpired());
  }

  private async loop(signal: AbortSignal, periodMs: number, jitter: number, step: () => Promise<unknown>) {
    while (!signal.aborted) {
      try {
        await sleep(periodMs * (1 + Math.random() * jitter), undefined, { signal });
      } catch {
        return;
      }
      await step().catch((err: unknown) => this.options.onError?.(err));
    }
  }
}
