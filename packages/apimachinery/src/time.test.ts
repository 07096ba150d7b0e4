import { describe, expect, it } from 'vitest';
import { daysFromCivil, civilFromDays } from './go-time.js';
import {
  addMicros,
  compareMicroTime,
  diffMicros,
  formatMicroTime,
  formatTime,
  microTimeFromDate,
  microTimeToDate,
  normalizeMicroTime,
  normalizeTime,
  nowMicroTime,
  parseMicroTime,
  parseTime,
  TimeParseError,
  type MicroTime,
} from './time.js';

const may1 = 1714557600; // 2024-05-01T10:00:00Z

function ok(s: string): MicroTime {
  const t = parseMicroTime(s);
  if (t instanceof TimeParseError) throw t;
  return t;
}

describe('parsing accepts any RFC3339 form', () => {
  it.each([
    ['2024-05-01T10:00:00Z', may1, 0],
    ['2024-05-01T10:00:00.123Z', may1, 123000],
    ['2024-05-01T10:00:00.123456Z', may1, 123456],
    ['2024-05-01T10:00:00.123456789Z', may1, 123456],
    ['2024-05-01T10:00:00.1234567891234Z', may1, 123456],
    ['2024-05-01T10:00:00,5Z', may1, 500000],
    ['2024-05-01T12:00:00.5+02:00', may1, 500000],
    ['2024-05-01T05:30:00-04:30', may1, 0],
    ['2024-05-01T9:00:00-01:00', may1, 0],
    ['1969-12-31T23:59:59.5Z', -1, 500000],
    ['1970-01-01T00:00:00Z', 0, 0],
    ['2000-02-29T00:00:00Z', 951782400, 0],
    ['0001-01-01T00:00:00Z', -62135596800, 0],
  ])('%s', (s, seconds, micros) => {
    expect(ok(s)).toEqual({ seconds, micros });
  });

  it('parseTime accepts the same forms', () => {
    expect(parseTime('2024-05-01T10:00:00.999Z')).toEqual({ seconds: may1, micros: 999000 });
  });
});

describe('parse errors carry Go text', () => {
  const layout = '"2006-01-02T15:04:05Z07:00"';
  it.each([
    ['x', `parsing time "x" as ${layout}: cannot parse "x" as "2006"`],
    ['', `parsing time "" as ${layout}: cannot parse "" as "2006"`],
    ['24-05-01T10:00:00Z', `parsing time "24-05-01T10:00:00Z" as ${layout}: cannot parse "24-05-01T10:00:00Z" as "2006"`],
    ['2024/05/01T10:00:00Z', `parsing time "2024/05/01T10:00:00Z" as ${layout}: cannot parse "/05/01T10:00:00Z" as "-"`],
    ['2024-5-01T10:00:00Z', `parsing time "2024-5-01T10:00:00Z" as ${layout}: cannot parse "5-01T10:00:00Z" as "01"`],
    ['2024-05-01 10:00:00Z', `parsing time "2024-05-01 10:00:00Z" as ${layout}: cannot parse " 10:00:00Z" as "T"`],
    ['2024-05-01T10:00:00', `parsing time "2024-05-01T10:00:00" as ${layout}: cannot parse "" as "Z07:00"`],
    ['2024-05-01T10:00:00+0200', `parsing time "2024-05-01T10:00:00+0200" as ${layout}: cannot parse "+0200" as "Z07:00"`],
    ['2024-05-01T10:00:00z', `parsing time "2024-05-01T10:00:00z" as ${layout}: cannot parse "z" as "Z07:00"`],
    ['2024-05-01T10:00Z', `parsing time "2024-05-01T10:00Z" as ${layout}: cannot parse "Z" as ":"`],
    ['2024-13-01T00:00:00Z', 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2024-00-01T00:00:00Z', 'parsing time "2024-00-01T00:00:00Z": month out of range'],
    ['2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['2024-05-01T24:00:00Z', 'parsing time "2024-05-01T24:00:00Z": hour out of range'],
    ['2024-05-01T10:60:00Z', 'parsing time "2024-05-01T10:60:00Z": minute out of range'],
    ['2024-05-01T10:00:60Z', 'parsing time "2024-05-01T10:00:60Z": second out of range'],
    ['2024-05-01T10:00:00+25:00', 'parsing time "2024-05-01T10:00:00+25:00": time zone offset hour out of range'],
    ['2024-05-01T10:00:00Zjunk', 'parsing time "2024-05-01T10:00:00Zjunk": extra text: "junk"'],
    ['2024-05-01T10:00:00Zü', 'parsing time "2024-05-01T10:00:00Z\\xc3\\xbc": extra text: "\\xc3\\xbc"'],
  ])('%j', (s, message) => {
    const t = parseMicroTime(s);
    expect(t).toBeInstanceOf(TimeParseError);
    expect((t as TimeParseError).message).toBe(message);
  });
});

describe('formatting', () => {
  it.each([
    [{ seconds: may1, micros: 0 }, '2024-05-01T10:00:00.000000Z', '2024-05-01T10:00:00Z'],
    [{ seconds: may1, micros: 123456 }, '2024-05-01T10:00:00.123456Z', '2024-05-01T10:00:00Z'],
    [{ seconds: may1, micros: 999999 }, '2024-05-01T10:00:00.999999Z', '2024-05-01T10:00:00Z'],
    [{ seconds: -1, micros: 500000 }, '1969-12-31T23:59:59.500000Z', '1969-12-31T23:59:59Z'],
    [{ seconds: -62135596800, micros: 0 }, null, null],
    [{ seconds: -62135596800, micros: 1 }, '0001-01-01T00:00:00.000001Z', '0001-01-01T00:00:00Z'],
  ])('%j', (t, micro, seconds) => {
    expect(formatMicroTime(t)).toBe(micro);
    expect(formatTime(t)).toBe(seconds);
  });

  it('null and undefined are written as null', () => {
    expect(formatMicroTime(null)).toBeNull();
    expect(formatTime(undefined)).toBeNull();
  });

  it.each([
    ['2024-05-01T10:00:00.123Z', '2024-05-01T10:00:00.123000Z', '2024-05-01T10:00:00Z'],
    ['2024-05-01T12:00:00+02:00', '2024-05-01T10:00:00.000000Z', '2024-05-01T10:00:00Z'],
  ])('normalises %s', (s, micro, seconds) => {
    expect(normalizeMicroTime(s)).toBe(micro);
    expect(normalizeTime(s)).toBe(seconds);
  });

  it('normalising keeps null and throws the parse error', () => {
    expect(normalizeMicroTime(null)).toBeNull();
    expect(() => normalizeTime('nope')).toThrow(TimeParseError);
  });
});

describe('arithmetic and conversion', () => {
  it('compares at microsecond precision', () => {
    const a = ok('2024-05-01T10:00:00.000001Z');
    const b = ok('2024-05-01T10:00:00.000002Z');
    expect(compareMicroTime(a, b)).toBe(-1);
    expect(compareMicroTime(b, a)).toBe(1);
    expect(compareMicroTime(a, a)).toBe(0);
    expect(diffMicros(b, a)).toBe(1);
  });

  it.each([
    [{ seconds: 10, micros: 999999 }, 1, { seconds: 11, micros: 0 }],
    [{ seconds: 10, micros: 0 }, -1, { seconds: 9, micros: 999999 }],
    [{ seconds: 10, micros: 5 }, 15_000_000, { seconds: 25, micros: 5 }],
  ])('addMicros(%j, %d)', (t, d, want) => {
    expect(addMicros(t, d)).toEqual(want);
  });

  it('converts to and from Date (milliseconds)', () => {
    const d = new Date('2024-05-01T10:00:00.123Z');
    expect(microTimeFromDate(d)).toEqual({ seconds: may1, micros: 123000 });
    expect(microTimeToDate({ seconds: may1, micros: 123999 }).toISOString()).toBe('2024-05-01T10:00:00.123Z');
    expect(microTimeFromDate(new Date(-500))).toEqual({ seconds: -1, micros: 500000 });
  });

  it('now is close to the wall clock and formats with six digits', () => {
    const before = Date.now();
    const now = nowMicroTime();
    expect(Math.abs(now.seconds * 1000 + now.micros / 1000 - before)).toBeLessThan(1000);
    expect(formatMicroTime(now)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it.each([
    [1970, 1, 1],
    [2000, 2, 29],
    [1, 1, 1],
    [9999, 12, 31],
    [1900, 3, 1],
  ])('civil dates round-trip %d-%d-%d', (year, month, day) => {
    expect(civilFromDays(daysFromCivil(year, month, day))).toEqual({ year, month, day });
    const d = new Date(0);
    d.setUTCFullYear(year, month - 1, day);
    expect(daysFromCivil(year, month, day) * 86400000).toBe(d.getTime());
  });
});
