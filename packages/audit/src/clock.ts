import type { Instant } from './types.js';

// performance.now() has sub-millisecond resolution; anchored to the wall clock once, it gives
// the microseconds MicroTime carries (Date alone would leave the last three digits zero).
const originMicros = Math.round(performance.timeOrigin * 1000);

export function nowInstant(): Instant {
  const micros = originMicros + Math.round(performance.now() * 1000);
  const seconds = Math.floor(micros / 1_000_000);
  return { seconds, micros: micros - seconds * 1_000_000 };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function dateTime(d: Date): string {
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}` +
    `T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`
  );
}

// Every event formats two or more times within the same second: the date part is kept.
let lastSeconds = Number.NaN;
let lastDateTime = '';

function utcDateTime(seconds: number): string {
  if (seconds !== lastSeconds) {
    lastDateTime = dateTime(new Date(seconds * 1000));
    lastSeconds = seconds;
  }
  return lastDateTime;
}

/** metav1.MicroTime on the wire: UTC, six fraction digits. */
export function formatMicro(t: Instant): string {
  return `${utcDateTime(t.seconds)}.${pad(t.micros, 6)}Z`;
}

/** metav1.Time on the wire: UTC, whole seconds. */
export function formatSeconds(t: Instant): string {
  return `${utcDateTime(t.seconds)}Z`;
}

/**
 * Go's time.RFC3339Nano in the server's local zone (a Go time.Now() is local): trailing zeros
 * of the fraction are dropped, and UTC is written `Z`.
 */
export function formatRFC3339Nano(t: Instant): string {
  const offsetMin = -new Date(t.seconds * 1000).getTimezoneOffset();
  const local = new Date((t.seconds + offsetMin * 60) * 1000);
  const fraction = t.micros === 0 ? '' : `.${pad(t.micros, 6)}`.replace(/0+$/, '');
  let zone = 'Z';
  if (offsetMin !== 0) {
    const abs = Math.abs(offsetMin);
    zone = `${offsetMin < 0 ? '-' : '+'}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
  }
  return `${dateTime(local)}${fraction}${zone}`;
}
