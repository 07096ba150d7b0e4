/**
 * The stored (internal) Event and the contract a served API version of it fulfils.
 *
 * The internal object is the core/v1 shape, because both APIs serve the same stored object
 * (api-semantics §1.1). Zero values are absent: no empty strings, no zero count, no empty
 * involvedObject/source, no zero timestamps. MicroTime fields hold exactly six fraction digits
 * (`2024-05-01T10:00:00.123456Z`), Time fields whole seconds (`2024-05-01T10:00:00Z`).
 * `series` and `related` are Go pointers, so `{}` (present but empty) differs from absent.
 */
import type {
  ObjectMeta,
  ObjectReference,
  ResourceView as SharedResourceView,
  StoredObject,
} from '@keel/resource';

export interface EventSource {
  component?: string;
  host?: string;
}

export interface EventSeries {
  count?: number;
  /** MicroTime. */
  lastObservedTime?: string;
}

export interface InternalEvent {
  /**
   * As decoded with eventDecodeOptions: empty maps and lists kept as sent (`managedFields: []`
   * means "reset" to the field manager), owner references with the four strings Go always writes.
   */
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

/** One served group/version of the Event, as the generic registry uses it. */
export interface ResourceView<T extends StoredObject> extends SharedResourceView<T> {
  readonly storageVersionHash: string;
  labels(obj: T): Record<string, string>;
}
