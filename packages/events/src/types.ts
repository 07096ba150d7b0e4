/**
 * The stored (internal) Event and the contract a served API version of it fulfils.
 *
 * The internal object is the core/v1 shape, because both APIs serve the same stored object
 * (api-semantics §1.1). Zero values are absent: no empty strings, no zero count, no empty
 * involvedObject/source, no zero timestamps. MicroTime fields hold exactly six fraction digits
 * (`2024-05-01T10:00:00.123456Z`), Time fields whole seconds (`2024-05-01T10:00:00Z`).
 * `series` and `related` are Go pointers, so `{}` (present but empty) differs from absent.
 */
import type { FieldError, GroupKind, JsonValue } from '@keel/apimachinery';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface EventSource {
  component?: string;
  host?: string;
}

export interface EventSeries {
  count?: number;
  /** MicroTime. */
  lastObservedTime?: string;
}

/** Go writes these four strings even when empty, so they are always present here. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  /** Time (whole seconds). */
  time?: string;
  fieldsType?: string;
  fieldsV1?: JsonValue;
  subresource?: string;
}

/**
 * Object metadata as decoded: unknown fields dropped, timestamps normalised to whole seconds.
 * Empty maps and lists are kept as sent (`managedFields: []` means "reset" to the field manager).
 */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

export interface InternalEvent {
  metadata: ObjectMeta;
  /** `regarding` in events.k8s.io/v1. */
  involvedObject?: ObjectReference;
  reason?: string;
  /** `note` in events.k8s.io/v1. */
  message?: string;
  /** `deprecatedSource` in events.k8s.io/v1. */
  source?: EventSource;
  /** Time; `deprecatedFirstTimestamp` in events.k8s.io/v1. */
  firstTimestamp?: string;
  /** Time; `deprecatedLastTimestamp` in events.k8s.io/v1. */
  lastTimestamp?: string;
  /** `deprecatedCount` in events.k8s.io/v1. */
  count?: number;
  type?: string;
  /** MicroTime. */
  eventTime?: string;
  series?: EventSeries;
  action?: string;
  related?: ObjectReference;
  /** Go's ReportingController; `reportingController` in events.k8s.io/v1. */
  reportingComponent?: string;
  reportingInstance?: string;
}

export interface DecodeResult<T> {
  object: T;
  /** JSON paths of fields the schema does not know (`metadata.bogus`, `regarding.foo`), in body order. */
  unknownFields: string[];
  /** Never set here: duplicate keys are gone once the body is parsed, the raw text must be checked. */
  duplicateFields?: string[];
}

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** One served group/version of a resource, as the generic registry uses it. */
export interface ResourceView<T> {
  readonly group: string;
  readonly version: string;
  /** `group/version`, or just the version for the core group. */
  readonly apiVersion: string;
  readonly resource: string;
  readonly kind: string;
  readonly listKind: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly verbs: readonly string[];
  readonly storageVersionHash: string;
  readonly namespaced: boolean;
  /** What `invalid()` gets for a 422 (the internal type's GroupKind). */
  readonly invalidKind: GroupKind;
  readonly allowCreateOnUpdate: boolean;
  readonly allowUnconditionalUpdate: boolean;

  /** Wire → internal. Throws a 400 StatusError for a bad apiVersion/kind or a wrong JSON type. */
  decode(body: unknown): DecodeResult<T>;
  /** Internal → wire, with kind and apiVersion, zero values written as Go writes them. */
  encode(obj: T): Record<string, unknown>;

  /** Everything BeforeCreate checks: the strategy, then (only if that passed) the generic metadata rules. */
  validateCreate(obj: T): FieldError[];
  /**
   * Everything BeforeUpdate checks: the generic metadata rules, then the strategy. The registry
   * first copies uid/creationTimestamp from `old` and, for an unconditional update, the stored
   * resourceVersion (as Go does), since metadata update validation demands one.
   */
  validateUpdate(obj: T, old: T): FieldError[];
  prepareForCreate(obj: T): void;
  prepareForUpdate(obj: T, old: T): void;

  /** The field selector labels this version accepts; any other is `field label not supported: x`. */
  readonly fieldLabels: readonly string[];
  /** Every label of `fieldLabels` with the object's value. */
  fields(obj: T): Record<string, string>;
  labels(obj: T): Record<string, string>;

  readonly tableColumns: readonly TableColumnDefinition[];
  /** One cell per column (the server always renders the wide form). */
  tableRow(obj: T, now: Date): unknown[];
}
