/**
 * The little a lock needs from an API client: read, create and replace one object. Kept abstract so
 * the election logic does not depend on a transport; `@keel/client`'s RestClient fits with a
 * few-line adapter, and tests use {@link MemoryObjectClient}.
 */

/** A Kubernetes object as JSON. Only `metadata` is looked at by the locks. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetadata;
  [key: string]: unknown;
}

export interface ObjectMetadata {
  name?: string;
  namespace?: string;
  resourceVersion?: string;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

export interface RequestOptions {
  /** Aborts the request; the elector passes its renew deadline here. */
  readonly signal?: AbortSignal;
}

/**
 * Errors must carry the API Status reason as `reason` (apimachinery's StatusError does):
 * `NotFound` from get/update of a missing object, `AlreadyExists` from create of an existing one,
 * `Conflict` from an update whose `metadata.resourceVersion` is stale.
 */
export interface ObjectClient {
  /** GET `path` (the object's URL path). */
  get(path: string, options?: RequestOptions): Promise<KubeObject>;
  /** POST `object` to `collectionPath`; resolves with the object as stored. */
  create(collectionPath: string, object: KubeObject, options?: RequestOptions): Promise<KubeObject>;
  /** PUT `object` at `path`, conditional on its `metadata.resourceVersion`; resolves with the stored object. */
  update(path: string, object: KubeObject, options?: RequestOptions): Promise<KubeObject>;
}

/** The `reason` an ObjectClient error carries, if any. */
export function errorReason(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('reason' in err)) return undefined;
  const reason = err.reason;
  return typeof reason === 'string' ? reason : undefined;
}

export const isNotFoundError = (err: unknown): boolean => errorReason(err) === 'NotFound';
export const isAlreadyExistsError = (err: unknown): boolean => errorReason(err) === 'AlreadyExists';
export const isConflictError = (err: unknown): boolean => errorReason(err) === 'Conflict';

/** Where an object lives in the REST tree. */
export interface ObjectLocation {
  /** `/api/v1` or `/apis/<group>/<version>`. */
  readonly groupVersionPath: string;
  /** Plural resource name, e.g. `leases`. */
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
}

export function collectionPath(loc: ObjectLocation): string {
  return `${loc.groupVersionPath}/namespaces/${encodeURIComponent(loc.namespace)}/${loc.resource}`;
}

export function objectPath(loc: ObjectLocation): string {
  return `${collectionPath(loc)}/${encodeURIComponent(loc.name)}`;
}
