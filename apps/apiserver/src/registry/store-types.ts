import type { Admission } from '@keel/admission';
import type { FieldSelector, LabelSelector } from '@keel/apimachinery';
import type { UserInfo } from '@keel/auth';
import type { Storage } from '@keel/storage';
import type { GarbageCollectionOptions, PropagationRequest } from './gc-finalizers.js';
import type { InternalObject, ResourceView } from './resource-view.js';

/** What admission plugins leave on the request besides their decision. */
export interface RequestEffects {
  /** Audit annotations go here (the request's audit event); absent when the request is not audited. */
  readonly annotate?: ((key: string, value: string) => void) | undefined;
  /** A `Warning` header for the client (kubectl prints it). */
  readonly warn?: ((text: string) => void) | undefined;
}

export interface WriteContext extends RequestEffects {
  readonly dryRun: boolean;
  /** Who writes: admission plugins decide on it. */
  readonly user: UserInfo;
  /** Already resolved from the query or the User-Agent. */
  readonly fieldManager: string;
  /** How managedFields records the write; apply patches are `Apply`. */
  readonly operation?: 'Apply' | 'Update';
  /** An apply takes the fields other managers own instead of failing with a conflict. */
  readonly force?: boolean;
}

export interface ListQuery {
  readonly labelSelector: LabelSelector;
  readonly fieldSelector: FieldSelector;
  readonly limit: number;
  readonly continue: string;
  readonly resourceVersion: string;
  readonly resourceVersionMatch: string;
}

export interface StoreOptions<I extends InternalObject> {
  readonly storage: Storage;
  readonly view: ResourceView<I>;
  /** Key root under the store prefix, e.g. `/events`. */
  readonly keyRoot: string;
  /** Every write (create and update) lives this long (--event-ttl for events). */
  readonly ttlSeconds?: number;
  readonly now?: () => Date;
  /**
   * Every view of the stored object (this one included): managedFields entries recorded through
   * another API version are compared in that version's field names.
   */
  readonly views?: readonly ResourceView<I>[];
  /** The admission plugins every write through this store passes (none when unset). */
  readonly admission?: Admission;
  /** The subresource this store writes through ('' for the resource itself), as admission names it. */
  readonly subresource?: string;
  /**
   * What besides metadata.finalizers keeps a deleted object when an update takes its last
   * finalizer off (namespaces: spec.finalizers, until the namespace controller finalizes it).
   */
  readonly holdsDeletion?: (obj: I) => boolean;
  /**
   * Whether deletes add the garbage collector's finalizers, and this resource's default policy
   * (none are added when unset, as with --enable-garbage-collector=false).
   */
  readonly garbageCollection?: GarbageCollectionOptions;
  /** What the resource reserves outside its object (a Service's cluster IPs and node ports). */
  readonly hooks?: WriteHooks<I>;
}

/** What a write reserved: kept once the write is stored, given back when it fails. */
export interface WriteTransaction {
  commit(): Promise<void>;
  revert(): Promise<void>;
}

/**
 * Upstream's BeginCreate/BeginUpdate and AfterDelete: reservations made before the strategy's
 * rules run (they may fill fields the rules check), finished by the write's outcome.
 */
export interface WriteHooks<I> {
  beginCreate(obj: I, dryRun: boolean): Promise<WriteTransaction>;
  beginUpdate(obj: I, old: I, dryRun: boolean): Promise<WriteTransaction>;
  /** After the object is gone from the store (not when a finalizer only marked it). */
  afterDelete(obj: I, dryRun: boolean): Promise<void>;
}

/** What a delete needs besides the object's name (and how its dependents go). */
export interface DeleteContext extends RequestEffects, PropagationRequest {
  readonly dryRun: boolean;
  readonly user: UserInfo;
  readonly preconditions?: { uid?: string; resourceVersion?: string };
}
