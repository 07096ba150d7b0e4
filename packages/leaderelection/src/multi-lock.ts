/**
 * client-go resourcelock.MultiLock: the migration lock that writes an old-style annotation lock
 * (primary) and a Lease (secondary), so candidates on either kind of lock see each other.
 */
import { ConfigMapLock, EndpointsLock } from './annotation-lock.js';
import { LeaseLock } from './lease-lock.js';
import type { Lock, LockConfig, LockGetResult } from './lock.js';
import type { ObjectClient, RequestOptions } from './object-client.js';
import { isAlreadyExistsError } from './object-client.js';
import { UNKNOWN_LEADER, type LeaderElectionRecord } from './record.js';

function rawText(raw: unknown): string {
  return typeof raw === 'string' ? raw : JSON.stringify(raw);
}

export class MultiLock implements Lock {
  constructor(
    readonly primary: Lock,
    readonly secondary: Lock,
  ) {}

  async get(options?: RequestOptions): Promise<LockGetResult | undefined> {
    const primary = await this.primary.get(options);
    if (!primary) return undefined;
    const secondary = await this.secondary.get(options);
    if (!secondary) {
      // Held by a candidate that only knows the old lock; while we hold it, report "not found" so
      // the elector creates the missing half.
      return primary.record.holderIdentity !== this.identity() ? primary : undefined;
    }
    let { record, raw } = primary;
    if (record.holderIdentity !== secondary.record.holderIdentity) {
      record = { ...record, holderIdentity: UNKNOWN_LEADER };
      raw = JSON.stringify(record);
    }
    return { record, raw: `${rawText(raw)},${rawText(secondary.raw)}` };
  }

  async create(record: LeaderElectionRecord, options?: RequestOptions): Promise<void> {
    try {
      await this.primary.create(record, options);
    } catch (err) {
      if (!isAlreadyExistsError(err)) throw err;
    }
    await this.secondary.create(record, options);
  }

  async update(record: LeaderElectionRecord, options?: RequestOptions): Promise<void> {
    await this.primary.update(record, options);
    // The secondary is re-read first so its update carries a current resourceVersion.
    if (!(await this.secondary.get(options))) {
      await this.secondary.create(record, options);
      return;
    }
    await this.secondary.update(record, options);
  }

  identity(): string {
    return this.primary.identity();
  }

  describe(): string {
    return this.primary.describe();
  }

  recordEvent(message: string): void {
    this.primary.recordEvent(message);
    this.secondary.recordEvent(message);
  }
}

/** `--leader-elect-resource-lock=endpointsleases`: an Endpoints annotation plus a Lease. */
export class EndpointsLeaseLock extends MultiLock {
  constructor(namespace: string, name: string, client: ObjectClient, config: LockConfig) {
    super(new EndpointsLock(namespace, name, client, config), new LeaseLock(namespace, name, client, config));
  }
}

/** `--leader-elect-resource-lock=configmapsleases`: a ConfigMap annotation plus a Lease. */
export class ConfigMapLeaseLock extends MultiLock {
  constructor(namespace: string, name: string, client: ObjectClient, config: LockConfig) {
    super(new ConfigMapLock(namespace, name, client, config), new LeaseLock(namespace, name, client, config));
  }
}
