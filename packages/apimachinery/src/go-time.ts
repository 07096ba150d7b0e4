/**
 * Go's `time.Parse(time.RFC3339, s)` step by step, so that bad input fails with Go's exact
 * ParseError text (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as
 * "2006"`). Like Go it accepts a fraction of any width after the seconds (`.` or `,`),
 * a one-digit hour, `Z` or a ±hh:mm offset.
 */

export const rfc3339Layout = '2006-01-02T15:04:05Z07:00';

export class TimeParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeParseError';
  }
}

/** An instant as whole Unix seconds plus a non-negative nanosecond part. */
export interface ParsedTime {
  readonly seconds: number;
  readonly nanos: number;
}

/** Go's time.quote: ASCII kept (`"` and `\` escaped), everything else as \x bytes. */
export function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0x80 || cp < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

function cannotParse(value: string, valueElem: string, layoutElem: string): TimeParseError {
  return new TimeParseError(
    `parsing time ${goTimeQuote(value)} as ${goTimeQuote(rfc3339Layout)}: cannot parse ${goTimeQuote(valueElem)} as ${goTimeQuote(layoutElem)}`,
  );
}

function withMessage(value: string, message: string): TimeParseError {
  return new TimeParseError(`parsing time ${goTimeQuote(value)}${message}`);
}

const isDigit = (s: string, i: number): boolean =>
  i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [s.charCodeAt(0) - 48, s.slice(1)];
  return [(s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), s.slice(2)];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The inverse of daysFromCivil. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Runs one layout element; returns the rest of the value or throws Go's error for it. */
type Step = (v: string) => string;

/** `count` decimal digits of `s` from `i` as a number; -1 when one is not a digit (or missing). */
function digitsAt(s: string, i: number, count: number): number {
  let v = 0;
  for (let k = i; k < i + count; k++) {
    const c = s.charCodeAt(k) - 48;
    // charCodeAt past the end is NaN, which fails this too.
    if (!(c >= 0 && c <= 9)) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * The form every client writes (`2006-01-02T15:04:05`, a fraction or not, `Z` or `±hh:mm`),
 * valid and in range, read at fixed positions: every write of a timestamped object parses its
 * times, and the steps below build a dozen closures each time. undefined for anything else,
 * valid or not, which the steps then read (and word the error for) as before.
 */
function parseCommonRFC3339(s: string): ParsedTime | undefined {
  if (s.length < 20) return undefined;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84) return undefined;
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  const year = digitsAt(s, 0, 4);
  const month = digitsAt(s, 5, 2);
  const day = digitsAt(s, 8, 2);
  const hour = digitsAt(s, 11, 2);
  const minute = digitsAt(s, 14, 2);
  const second = digitsAt(s, 17, 2);
  if (year < 0 || month < 1 || month > 12 || hour < 0 || hour > 23) return undefined;
  if (minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  if (day < 1 || day > daysIn(month, year)) return undefined;
  let i = 19;
  let nanos = 0;
  const sep = s.charCodeAt(i);
  if ((sep === 46 || sep === 44) && isDigit(s, i + 1)) {
    // Any width is accepted; nine digits are kept, as the steps keep them.
    let kept = 0;
    for (i++; isDigit(s, i); i++)
      if (kept < 9) {
        nanos = nanos * 10 + (s.charCodeAt(i) - 48);
        kept++;
      }
    for (; kept < 9; kept++) nanos *= 10;
  }
  const zone = s.charCodeAt(i);
  let offset = 0;
  if (zone === 90) {
    if (i + 1 !== s.length) return undefined;
  } else if (zone === 43 || zone === 45) {
    if (i + 6 !== s.length || s.charCodeAt(i + 3) !== 58) return undefined;
    const h = digitsAt(s, i + 1, 2);
    const m = digitsAt(s, i + 4, 2);
    if (h < 0 || m < 0 || h > 24 || m > 60) return undefined;
    offset = (zone === 45 ? -1 : 1) * (h * 3600 + m * 60);
  } else return undefined;
  return {
    seconds: daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset,
    nanos,
  };
}

export function parseRFC3339(value: string): ParsedTime {
  return parseCommonRFC3339(value) ?? parseRFC3339Stepwise(value);
}

/** Go's steps one by one; exported for the tests that hold parseRFC3339's fast path to it. */
export function parseRFC3339Stepwise(value: string): ParsedTime {
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nanos = 0;
  let offset = 0;
  const literal =
    (text: string): Step =>
    (v) => {
      if (!v.startsWith(text)) throw cannotParse(value, v, text);
      return v.slice(text.length);
    };
  const num =
    (
      std: string,
      fixed: boolean,
      range: [number, number, string] | undefined,
      set: (n: number) => void,
    ): Step =>
    (v) => {
      const got = getnum(v, fixed);
      if (!got) throw cannotParse(value, v, std);
      if (range && (got[0] < range[0] || got[0] > range[1]))
        throw withMessage(value, `: ${range[2]} out of range`);
      set(got[0]);
      return got[1];
    };
  const steps: Step[] = [
    (v) => {
      if (v.length < 4 || !isDigit(v, 0) || !/^[0-9]{4}/.test(v)) throw cannotParse(value, v, '2006');
      year = Number(v.slice(0, 4));
      return v.slice(4);
    },
    literal('-'),
    num('01', true, [1, 12, 'month'], (n) => (month = n)),
    literal('-'),
    num('02', true, undefined, (n) => (day = n)),
    literal('T'),
    num('15', false, [0, 23, 'hour'], (n) => (hour = n)),
    literal(':'),
    num('04', true, [0, 59, 'minute'], (n) => (minute = n)),
    literal(':'),
    (v) => {
      const rest = num('05', true, [0, 59, 'second'], (n) => (second = n))(v);
      // A fraction the layout does not mention is still accepted (any width, `.` or `,`).
      if (rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1)) {
        let n = 2;
        while (isDigit(rest, n)) n++;
        nanos = Number(rest.slice(1, Math.min(n, 10)).padEnd(9, '0'));
        return rest.slice(n);
      }
      return rest;
    },
    (v) => {
      if (v.startsWith('Z')) return v.slice(1);
      if (v.length < 6 || v[3] !== ':') throw cannotParse(value, v, 'Z07:00');
      const hh = getnum(v.slice(1, 3), true);
      const mm = hh ? getnum(v.slice(4, 6), true) : undefined;
      const [h, m] = [hh?.[0] ?? 0, mm?.[0] ?? 0];
      // Go records range problems before the sign check and reports them first.
      if (m > 60) throw withMessage(value, ': time zone offset minute out of range');
      if (h > 24) throw withMessage(value, ': time zone offset hour out of range');
      if (!hh || !mm || (v[0] !== '+' && v[0] !== '-')) throw cannotParse(value, v, 'Z07:00');
      offset = (v[0] === '-' ? -1 : 1) * (h * 3600 + m * 60);
      return v.slice(6);
    },
  ];
  let rest = value;
  for (const step of steps) rest = step(rest);
  if (rest.length > 0) throw withMessage(value, `: extra text: ${goTimeQuote(rest)}`);
  if (day < 1 || day > daysIn(month, year)) throw withMessage(value, ': day out of range');
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  return { seconds, nanos };
}
