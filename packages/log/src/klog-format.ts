import winston from 'winston';
import { goQuote } from '@keel/apimachinery';
import { formatKeyValue, type Entry } from './kv-format.js';

/** klog's severity letters; Keel has no fatal level (a daemon returns an error and exits instead). */
export type Severity = 'I' | 'W' | 'E';

/** Everything one line needs, captured at the call site and carried through winston under KLOG. */
export interface KlogRecord {
  readonly severity: Severity;
  readonly time: Date;
  readonly file: string;
  readonly line: number;
  readonly message: string;
  readonly entries: readonly Entry[];
}

/** Where a record rides on a winston info object; a symbol so it cannot clash with winston's own keys. */
export const KLOG = Symbol('keel.klog');
/** triple-beam's MESSAGE: what winston transports write. */
export const MESSAGE = Symbol.for('message');

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * `Lmmdd hh:mm:ss.uuuuuu threadid file:line] ` in the process's local time, as klog writes it.
 * JavaScript clocks have milliseconds, so the last three digits of the microseconds are zero.
 */
export function klogHeader(r: Pick<KlogRecord, 'severity' | 'time' | 'file' | 'line'>, pid: number): string {
  const t = r.time;
  return (
    r.severity +
    pad2(t.getMonth() + 1) +
    pad2(t.getDate()) +
    ' ' +
    pad2(t.getHours()) +
    ':' +
    pad2(t.getMinutes()) +
    ':' +
    pad2(t.getSeconds()) +
    '.' +
    String(t.getMilliseconds() * 1000).padStart(6, '0') +
    ' ' +
    String(pid).padStart(7, ' ') +
    ' ' +
    r.file +
    ':' +
    String(r.line) +
    '] '
  );
}

/** One complete line (newline included) in klog's structured form: `"msg" key="value" ...`. */
export function formatKlogLine(r: KlogRecord, pid: number): string {
  let out = klogHeader(r, pid) + goQuote(r.message);
  for (const [k, v] of r.entries) out += formatKeyValue(k, v);
  return out + '\n';
}

/** The winston format that renders a record; infos without one (someone else's) pass through untouched. */
export function klogFormat(pid: number): winston.Logform.Format {
  return winston.format((info) => {
    const record = info[KLOG] as KlogRecord | undefined;
    if (record !== undefined) info[MESSAGE] = formatKlogLine(record, pid);
    return info;
  })();
}
