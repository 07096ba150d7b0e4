/**
 * The server-side Table for Events (pkg/printers/internalversion printEvent; api-semantics §10.4).
 * The server always prints the wide form: all ten cells, the priority-1 ones hidden by kubectl
 * unless `-o wide`. Both API versions use these columns.
 */
import { column, nameColumn, since, type TableColumn } from '@keel/resource';
import type { EventSource, InternalEvent } from './types.js';

// The descriptions are core/v1's swagger docs, which the real printer uses.
export const eventTableColumns: readonly TableColumn[] = [
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
  // Only `-o wide` shows the name.
  { ...nameColumn, priority: 1 },
];

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
