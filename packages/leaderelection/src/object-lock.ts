/**
 * What the single-object locks share: one object at a known location, cached after every read and
 * write so that an update carries the resourceVersion last seen (client-go keeps `ll.lease`/`el.e`).
 */
import { emitLockEvent, type Lock, type LockConfig, type LockGetResult } from './lock.js';
import {
  collectionPath,
  isNotFoundError,
  objectPath,
  type KubeObject,
  type ObjectClient,
  type ObjectLocation,
  type RequestOptions,
} from './object-client.js';
import type { LeaderElectionRecord } from './record.js';

export abstract class ObjectLock implements Lock {
  private cached: KubeObject | undefined;

  protected constructor(
    protected readonly location: ObjectLocation,
    /** `apiVersion` and `kind` of the object, for events and new objects. */
    protected readonly typeMeta: { readonly apiVersion: string; readonly kind: string },
    protected readonly client: ObjectClient,
    protected readonly config: LockConfig,
  ) {}

  /** The record an object holds, and its raw form. */
  protected abstract read(object: KubeObject): LockGetResult;
  /** `base` (the cached object, or a bare new one) carrying `record`. */
  protected abstract write(base: KubeObject, record: LeaderElectionRecord): KubeObject;

  async get(options?: RequestOptions): Promise<LockGetResult | undefined> {
    let object: KubeObject;
    try {
      object = await this.client.get(objectPath(this.location), options);
    } catch (err) {
      if (isNotFoundError(err)) return undefined;
      throw err;
    }
    this.cached = object;
    return this.read(object);
  }

  async create(record: LeaderElectionRecord, options?: RequestOptions): Promise<void> {
    const bare: KubeObject = {
      ...this.typeMeta,
      metadata: { name: this.location.name, namespace: this.location.namespace },
    };
    this.cached = await this.client.create(collectionPath(this.location), this.write(bare, record), options);
  }

  async update(record: LeaderElectionRecord, options?: RequestOptions): Promise<void> {
    if (!this.cached) {
      throw new Error(`${this.typeMeta.kind} ${this.describe()} not initialized, call get or create first`);
    }
    const next = this.write(structuredClone(this.cached), record);
    this.cached = await this.client.update(objectPath(this.location), next, options);
  }

  identity(): string {
    return this.config.identity;
  }

  describe(): string {
    return `${this.location.namespace}/${this.location.name}`;
  }

  recordEvent(message: string): void {
    // client-go uses the cached object's metadata; before any read there is only the name.
    const metadata = this.cached?.metadata ?? {
      name: this.location.name,
      namespace: this.location.namespace,
    };
    emitLockEvent(this.config, { ...this.typeMeta, metadata }, message);
  }
}
