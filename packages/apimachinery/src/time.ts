/**
 * metav1.Time and metav1.MicroTime on the wire.
 *
 * Both are held as `{ seconds, micros }` (whole Unix seconds plus 0..999999 µs), which keeps
 * microseconds exactly where a JS Date would lose them. Input: any RFC3339 form Go's time.Parse
 * accepts, with a fraction of any width (truncated to µs) and any offset; this is deliberately
 * more lenient than Go's fixed 6-digit MicroTime layout so `toISOString()` and Python's
 * `isoformat()` timestamps work. Output: UTC, `Time` in whole seconds, `MicroTime` with exactly
 * six fraction digits; the zero time is written as `null`.
 */
import { civilFromDays, parseRFC3339, TimeParseError } from './go-time.js';

export { TimeParseError } from './go-time.js';

export interface MicroTime {
  readonly seconds: number;
  readonly micros: number;
}

/** metav1.Time keeps sub-second precision in memory; only its serialisation drops it. */
export type Time = MicroTime;

/** Go's zero time, 0001-01-01T00:00:00Z, which is written as `null`. */
export const zeroTimeSeconds = -62135596800;

export function isZeroTime(t: MicroTime | null | undefined): boolean {
  return !t || (t.seconds === zeroTimeSeconds && t.micros === 0);
}

/** Parses any RFC3339 timestamp; a TimeParseError carries Go's text for decode errors. */
export function parseMicroTime(s: string): MicroTime | TimeParseError {
  try {
    const p = parseRFC3339(s);
    return { seconds: p.seconds, micros: Math.floor(p.nanos / 1000) };
  } catch (err) {
    if (err instanceof TimeParseError) return err;
    throw err;
  }
}

/** metav1.Time accepts the same inputs. */
export const parseTime: (s: string) => Time | TimeParseError = parseMicroTime;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function formatSeconds(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const secOfDay = seconds - days * 86400;
  const { year, month, day } = civilFromDays(days);
  // Go refuses to marshal years it cannot write in four digits.
  if (year < 0 || year > 9999) throw new RangeError('Time.MarshalJSON: year outside of range [0,9999]');
  const hh = Math.floor(secOfDay / 3600);
  const mm = Math.floor((secOfDay % 3600) / 60);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(secOfDay % 60, 2)}`;
}

/** `2006-01-02T15:04:05.000000Z`, or null for the zero time. */
export function formatMicroTime(t: MicroTime | null | undefined): string | null {
  if (!t || isZeroTime(t)) return null;
  return `${formatSeconds(t.seconds)}.${pad(t.micros, 6)}Z`;
}

/** `2006-01-02T15:04:05Z` (truncated to seconds), or null for the zero time. */
export function formatTime(t: Time | null | undefined): string | null {
  if (!t || isZeroTime(t)) return null;
  return `${formatSeconds(t.seconds)}Z`;
}

/** Re-writes a wire MicroTime in canonical form; null stays null. Throws TimeParseError. */
export function normalizeMicroTime(s: string | null): string | null {
  if (s === null) return null;
  const t = parseMicroTime(s);
  if (t instanceof TimeParseError) throw t;
  return formatMicroTime(t);
}

/** Re-writes a wire Time in canonical form; null stays null. Throws TimeParseError. */
export function normalizeTime(s: string | null): string | null {
  if (s === null) return null;
  const t = parseTime(s);
  if (t instanceof TimeParseError) throw t;
  return formatTime(t);
}

export function microTimeFromDate(d: Date): MicroTime {
  const ms = d.getTime();
  const seconds = Math.floor(ms / 1000);
  return { seconds, micros: (ms - seconds * 1000) * 1000 };
}

/** Loses the sub-millisecond part, as any Date must. */
export function microTimeToDate(t: MicroTime): Date {
  return new Date(t.seconds * 1000 + Math.floor(t.micros / 1000));
}

/** Wall-clock now. JS clocks only give milliseconds, so the last three digits are zero. */
export function nowMicroTime(): MicroTime {
  return microTimeFromDate(new Date());
}

/** Wall-clock now, for metav1.Time fields. */
export function nowTime(): Time {
  return nowMicroTime();
}

export function compareMicroTime(a: MicroTime, b: MicroTime): -1 | 0 | 1 {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  if (a.micros !== b.micros) return a.micros < b.micros ? -1 : 1;
  return 0;
}

export function equalMicroTime(a: MicroTime, b: MicroTime): boolean {
  return compareMicroTime(a, b) === 0;
}

/** Adds (or with a negative value subtracts) whole microseconds. */
export function addMicros(t: MicroTime, micros: number): MicroTime {
  const total = t.micros + micros;
  const carry = Math.floor(total / 1_000_000);
  return { seconds: t.seconds + carry, micros: total - carry * 1_000_000 };
}

/** `a - b` in microseconds (exact while the difference stays below 2^53 µs, about 285 years). */
export function diffMicros(a: MicroTime, b: MicroTime): number {
  return (a.seconds - b.seconds) * 1_000_000 + (a.micros - b.micros);
}
