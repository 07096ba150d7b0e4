/**
 * Helpers of the server-side printers (pkg/printers/internalversion): column definitions, the
 * Name and Age columns every kind has, and apimachinery's HumanDuration for ages.
 */
import { diffMicros, microTimeFromDate, parseMicroTime, TimeParseError } from '@keel/apimachinery';

export interface TableColumn {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

export function column(
  name: string,
  description: string,
  priority = 0,
  type = 'string',
  format = '',
): TableColumn {
  return { name, type, format, description, priority };
}

/** metav1.ObjectMeta's swagger docs, which every Name and Age column carries. */
export const nameColumn = column(
  'Name',
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  0,
  'string',
  'name',
);

export const ageColumn = column(
  'Age',
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
);

/**
 * apimachinery duration.HumanDuration: about two significant figures (`90s`, `5m3s`, `2d3h`,
 * `3y12d`). More than one second in the future is `<invalid>`.
 */
export function humanDuration(micros: number): string {
  const seconds = Math.trunc(micros / 1e6);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

/** translateTimestampSince: `<unknown>` for a zero or unreadable timestamp. */
export function since(timestamp: string | undefined, now: Date): string {
  if (!timestamp) return '<unknown>';
  const t = parseMicroTime(timestamp);
  if (t instanceof TimeParseError) return '<unknown>';
  return humanDuration(diffMicros(microTimeFromDate(now), t));
}
