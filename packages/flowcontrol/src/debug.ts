/**
 * The /debug/api_priority_and_fairness dumps as upstream writes them (apf_controller_debug.go):
 * comma-separated rows aligned by Go's text/tabwriter (minimum width 8, padding 1, spaces). One
 * row per priority level, per queue, or per waiting request.
 */
import type { PriorityLevelDump, RequestDescription } from './controller.js';

const NONE = '<none>';

/**
 * Go's tabwriter over rows of equal length joined by ",\t": every cell but the last ends in a
 * tab, so it is padded to its column's widest cell plus one, and at least 8.
 */
function tabulate(rows: readonly (readonly string[])[]): string {
  const cells = rows.map((r) => r.map((c, i) => (i < r.length - 1 ? `${c},` : c)));
  const widths: number[] = [];
  for (const r of cells)
    for (let i = 0; i < r.length - 1; i++) widths[i] = Math.max(widths[i] ?? 8, [...(r[i] ?? '')].length + 1);
  return cells
    .map(
      (r) =>
        r.map((c, i) => (i < r.length - 1 ? c + ' '.repeat((widths[i] ?? 8) - [...c].length) : c)).join('') +
        '\n',
    )
    .join('');
}

/** upstream's SeatSeconds.String(): eight decimals and `ss`. */
function seatSeconds(value: number): string {
  return `${value.toFixed(8)}ss`;
}

/** Go's time.RFC3339Nano in UTC: trailing zeros of the fraction dropped. */
function rfc3339Nano(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}

/** /debug/api_priority_and_fairness/dump_priority_levels, levels by name. */
export function dumpPriorityLevels(levels: readonly PriorityLevelDump[]): string {
  const rows: string[][] = [
    [
      'PriorityLevelName',
      'ActiveQueues',
      'IsIdle',
      'IsQuiescing',
      'WaitingRequests',
      'ExecutingRequests',
      'DispatchedRequests',
      'RejectedRequests',
      'TimedoutRequests',
      'CancelledRequests',
    ],
  ];
  for (const { name, queues: d } of levels) {
    if (!d) {
      rows.push([name, ...Array<string>(9).fill(NONE)]);
      continue;
    }
    rows.push([
      name,
      String(d.queues.filter((q) => q.waiting.length > 0).length),
      String(d.waiting === 0 && d.executing === 0),
      // A level removed from the configuration rejects what waits in it at once: none quiesces.
      'false',
      String(d.waiting),
      String(d.executing),
      String(d.dispatched),
      String(d.rejected),
      String(d.timedOut),
      String(d.cancelled),
    ]);
  }
  return tabulate(rows);
}

/** /debug/api_priority_and_fairness/dump_queues: one row per queue (none for Reject levels). */
export function dumpQueues(levels: readonly PriorityLevelDump[]): string {
  const rows: string[][] = [
    [
      'PriorityLevelName',
      'Index',
      'PendingRequests',
      'ExecutingRequests',
      'SeatsInUse',
      'NextDispatchR',
      'InitialSeatsSum',
      'MaxSeatsSum',
      'TotalWorkSum',
    ],
  ];
  for (const { name, queues: d } of levels) {
    if (!d) {
      rows.push([name, ...Array<string>(8).fill(NONE)]);
      continue;
    }
    d.queues.forEach((q, i) => {
      // A request's work is its seats (Keel charges no duration), so all three sums are seats.
      const seats = q.waiting.reduce((sum, r) => sum + r.seats, 0);
      rows.push([
        name,
        String(i),
        String(q.waiting.length),
        String(q.executing),
        String(q.seatsInUse),
        seatSeconds(q.nextDispatch),
        String(seats),
        String(seats),
        seatSeconds(seats),
      ]);
    });
  }
  return tabulate(rows);
}

/**
 * /debug/api_priority_and_fairness/dump_requests: one row per waiting request; with
 * `includeRequestDetails`, who sent it and what it asks for.
 */
export function dumpRequests(levels: readonly PriorityLevelDump[], includeRequestDetails: boolean): string {
  const header = [
    'PriorityLevelName',
    'FlowSchemaName',
    'QueueIndex',
    'RequestIndexInQueue',
    'FlowDistingsher',
    'ArriveTime',
    'InitialSeats',
    'FinalSeats',
    'AdditionalLatency',
  ];
  if (includeRequestDetails)
    header.push('UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource');
  const rows: string[][] = [header];
  for (const { name, queues: d } of levels) {
    if (!d) continue;
    d.queues.forEach((q, iq) => {
      q.waiting.forEach((r: RequestDescription, ir) => {
        const row = [
          name,
          r.flowSchema,
          String(iq),
          String(ir),
          r.distinguisher,
          rfc3339Nano(r.arrived),
          String(r.seats),
          '0',
          '0s',
        ];
        if (includeRequestDetails) {
          const x = r.details;
          const gv = x ? (x.apiGroup !== '' ? `${x.apiGroup}/${x.apiVersion}` : x.apiVersion) : '';
          row.push(
            x?.user.name ?? '',
            x?.verb ?? '',
            x?.path ?? '',
            x?.namespace ?? '',
            x?.name ?? '',
            gv,
            x?.resource ?? '',
            x?.subresource ?? '',
          );
        }
        rows.push(row);
      });
    });
  }
  return tabulate(rows);
}
