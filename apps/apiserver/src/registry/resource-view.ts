import type { FieldError, JsonValue } from '@keel/apimachinery';

/** Object metadata as the registry reads and writes it; everything else is the view's business. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  selfLink?: string;
  generation?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  managedFields?: ManagedFieldsEntry[];
}

/** One manager's record; optional throughout because clients may send partial entries. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: JsonValue;
  subresource?: string;
}

/** The stored (internal) form of an object: metadata plus the resource's own fields. */
export interface InternalObject {
  metadata: ObjectMeta;
}

export interface Decoded<I> {
  readonly object: I;
  /** JSON paths of fields the view does not know (fieldValidation Strict/Warn). */
  readonly unknownFields: readonly string[];
  readonly duplicateFields?: readonly string[];
}

export interface TableColumn {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

/**
 * One API group/version's view of a stored resource, and that resource's rules in it: how the
 * wire object converts to the stored one and back, what is valid, which fields selectors see.
 * Several views may share one store (core v1 Events and events.k8s.io/v1 Events).
 */
export interface ResourceView<I extends InternalObject = InternalObject> {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly listKind: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly namespaced: boolean;
  /** Discovery: the verbs served and the storage version hash clients cache by. */
  readonly verbs: readonly string[];
  readonly storageVersionHash?: string;
  readonly allowCreateOnUpdate: boolean;
  readonly allowUnconditionalUpdate: boolean;
  /** Defaults and clears what the server owns before validation (kube's PrepareForCreate). */
  prepareForCreate?(obj: I): void;
  /** Keeps what an update may not change (kube's PrepareForUpdate: e.g. status on the main resource). */
  prepareForUpdate?(obj: I, old: I): void;
  /** Converts a request body of this view into the stored form; throws a 400 StatusError. */
  decode(body: unknown): Decoded<I>;
  /** The wire form of this view, with kind and apiVersion. */
  encode(obj: I): Record<string, unknown>;
  validateCreate(obj: I): FieldError[];
  validateUpdate(obj: I, old: I): FieldError[];
  /** The field labels `fieldSelector` accepts in this view. */
  readonly fieldLabels: readonly string[];
  /** The values of those labels for an object. */
  fields(obj: I): Record<string, string>;
  readonly tableColumns: readonly TableColumn[];
  tableRow(obj: I, now: Date): unknown[];
}

export function apiVersionOf(view: { group: string; version: string }): string {
  return view.group === '' ? view.version : `${view.group}/${view.version}`;
}

export function qualifiedResource(view: { group: string; resource: string }): {
  group: string;
  resource: string;
} {
  return { group: view.group, resource: view.resource };
}
