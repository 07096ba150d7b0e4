/**
 * The leader election record (client-go resourcelock.LeaderElectionRecord) and its two stored
 * forms: a Lease spec, and the JSON annotation the Endpoints/ConfigMap locks carry.
 */
import {
  formatMicroTime,
  formatTime,
  microTimeFromDate,
  parseMicroTime,
  TimeParseError,
} from '@keel/apimachinery';

export interface LeaderElectionRecord {
  /** Who holds the lock; `''` means nobody (set on a voluntary release). */
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number;
  /** MicroTime text (`2006-01-02T15:04:05.000000Z`), or `''` when unset. */
  readonly acquireTime: string;
  /** MicroTime text, or `''` when unset. */
  readonly renewTime: string;
  readonly leaderTransitions: number;
}

/** The annotation the Endpoints and ConfigMap locks store the record in. */
export const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

/** client-go's UnknownLeader: a multilock whose two halves disagree about the holder. */
export const UNKNOWN_LEADER = 'leaderelection.k8s.io/unknown';

/** Milliseconds since the epoch as MicroTime text. */
export function microTimeString(ms: number): string {
  return formatMicroTime(microTimeFromDate(new Date(ms))) ?? '';
}

function parseTimeText(value: unknown, field: string): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value !== 'string') throw new TypeError(`${field} must be a string`);
  const t = parseMicroTime(value);
  if (t instanceof TimeParseError) throw t;
  return formatMicroTime(t) ?? '';
}

function intField(value: unknown, field: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new TypeError(`${field} must be an integer`);
  return value;
}

function stringField(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new TypeError(`${field} must be a string`);
  return value;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** client-go LeaseSpecToLeaderElectionRecord: absent fields read as zero values. */
export function recordFromLeaseSpec(spec: unknown): LeaderElectionRecord {
  const s = asObject(spec);
  return {
    holderIdentity: stringField(s.holderIdentity, 'spec.holderIdentity'),
    leaseDurationSeconds: intField(s.leaseDurationSeconds, 'spec.leaseDurationSeconds'),
    acquireTime: parseTimeText(s.acquireTime, 'spec.acquireTime'),
    renewTime: parseTimeText(s.renewTime, 'spec.renewTime'),
    leaderTransitions: intField(s.leaseTransitions, 'spec.leaseTransitions'),
  };
}

/** client-go LeaderElectionRecordToLeaseSpec. An unset time is left out rather than sent as null. */
export function recordToLeaseSpec(r: LeaderElectionRecord): Record<string, unknown> {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    ...(r.acquireTime ? { acquireTime: r.acquireTime } : {}),
    ...(r.renewTime ? { renewTime: r.renewTime } : {}),
    leaseTransitions: r.leaderTransitions,
  };
}

function timeText(micro: string): string | null {
  if (micro === '') return null;
  const t = parseMicroTime(micro);
  if (t instanceof TimeParseError) throw t;
  return formatTime(t);
}

/**
 * The annotation text, as Go's json.Marshal of the record writes it: this field order, and
 * metav1.Time (whole seconds, `null` when zero) for the times.
 */
export function recordToAnnotation(r: LeaderElectionRecord): string {
  return JSON.stringify({
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: timeText(r.acquireTime),
    renewTime: timeText(r.renewTime),
    leaderTransitions: r.leaderTransitions,
  });
}

/** Parses the annotation; throws on malformed JSON or field types, as client-go's Get fails. */
export function recordFromAnnotation(text: string): LeaderElectionRecord {
  const o = asObject(JSON.parse(text) as unknown);
  return {
    holderIdentity: stringField(o.holderIdentity, 'holderIdentity'),
    leaseDurationSeconds: intField(o.leaseDurationSeconds, 'leaseDurationSeconds'),
    acquireTime: parseTimeText(o.acquireTime, 'acquireTime'),
    renewTime: parseTimeText(o.renewTime, 'renewTime'),
    leaderTransitions: intField(o.leaderTransitions, 'leaderTransitions'),
  };
}
