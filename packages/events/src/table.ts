/**
 * The server-side Table for Events (pkg/printers/internalversion printEvent; api-semantics §10.4).
 * The server always prints the wide form: all ten cells, the priority-1 ones hidden by kubectl
 * unless `-o wide`. Both API versions use these columns.
 */
import { diffMicros, microTimeFromDate, parseMicroTime, TimeParseError } from '@keel/apimachinery';
import type { EventSource, InternalEvent, TableColumnDefinition } from './types.js';

function column(name: string, description: string, priority = 0, format = ''): TableColumnDefinition {
  return { name, type: 'string', format, description, priority };
}

// The descriptions are core/v1's swagger docs, which the real printer uses.
export const eventTableColumns: readonly TableColumnDefinition[] = [
  column('Last Seen', 'The time at which the most recent occurrence of this event was recorded.'),
  column('Type', 'Type of this event (Normal, Warning), new types could be added in the future'),
  column(
    'Reason',
    "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
  ),
  column('Object', 'The object that this event is about.'),
  column(
    'Subobject',
    'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
    1,
  ),
  column('Source', 'The component reporting this event. Should be a short machine understandable string.', 1),
  column('Message', 'A human-readable description of the status of this operation.'),
  column(
    'First Seen',
    'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
    1,
  ),
  column('Count', 'The number of times this event has occurred.', 1),
  column(
    'Name',
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
    1,
    'name',
  ),
];

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

/** translateTimestampSince / translateMicroTimestampSince. */
function since(timestamp: string | undefined, now: Date): string {
  if (!timestamp) return '<unknown>';
  const t = parseMicroTime(timestamp);
  if (t instanceof TimeParseError) return '<unknown>';
  return humanDuration(diffMicros(microTimeFromDate(now), t));
}

/** Go's unicode.IsSpace set: JS's \s without U+FEFF, plus U+0085. */
const goSpace =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** Go's strings.TrimSpace. */
function trimSpace(s: string): string {
  return s.replace(goSpace, '');
}

function formatSource(source: EventSource | undefined, controller: string, instance: string): string {
  const component = source?.component || controller;
  const host = source?.host || instance;
  return host ? `${component}, ${host}` : component;
}

export function eventTableRow(e: InternalEvent, now: Date): unknown[] {
  const firstSeen = e.firstTimestamp ? since(e.firstTimestamp, now) : since(e.eventTime, now);
  let lastSeen = e.lastTimestamp ? since(e.lastTimestamp, now) : firstSeen;
  let count = e.count ?? 0;
  if (e.series) {
    lastSeen = since(e.series.lastObservedTime, now);
    count = e.series.count ?? 0;
  } else if (count === 0) {
    // Singleton events of the new API carry no count.
    count = 1;
  }
  const kind = (e.involvedObject?.kind ?? '').toLowerCase();
  const name = e.involvedObject?.name ?? '';
  return [
    lastSeen,
    e.type ?? '',
    e.reason ?? '',
    name ? `${kind}/${name}` : kind,
    e.involvedObject?.fieldPath ?? '',
    formatSource(e.source, e.reportingComponent ?? '', e.reportingInstance ?? ''),
    trimSpace(e.message ?? ''),
    firstSeen,
    count,
    e.metadata.name ?? '',
  ];
}
