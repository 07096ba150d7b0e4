import { describe, expect, it } from 'vitest';
import { parseRFC3339, parseRFC3339Stepwise } from './go-time.js';

/** Each parser's answer: the instant, or the error's text. */
function outcome(parse: (s: string) => unknown, s: string): unknown {
  try {
    return parse(s);
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

const agrees = (s: string) => expect(outcome(parseRFC3339, s)).toEqual(outcome(parseRFC3339Stepwise, s));

const CASES = [
  '2026-11-21T00:00:00Z',
  '2026-11-21T00:00:00.000000Z',
  '2026-11-21T23:59:59.123456789Z',
  '2026-11-21T23:59:59.1234567891234Z',
  '2026-11-21T23:59:59,5Z',
  '2026-11-21T23:59:59.Z',
  '2026-11-21T23:59:59.5+01:30',
  '2026-11-21T23:59:59-08:00',
  '2026-11-21T23:59:59+24:60',
  '2026-11-21T23:59:59+25:00',
  '2026-11-21T23:59:59+01:61',
  '2026-11-21T23:59:59+0100',
  '2026-11-21T23:59:59+01:00x',
  '2026-11-21T23:59:59Zx',
  '2026-11-21T23:59:59',
  '2026-11-21t23:59:59Z',
  '2026-11-21T23:59:59z',
  '2026-11-21 23:59:59Z',
  '2026-11-21T3:59:59Z',
  '2026-11-21T24:00:00Z',
  '2026-11-21T23:60:00Z',
  '2026-11-21T23:59:60Z',
  '2026-00-21T00:00:00Z',
  '2026-13-21T00:00:00Z',
  '2026-11-00T00:00:00Z',
  '2026-11-31T00:00:00Z',
  '2024-02-29T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '1900-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999999Z',
  '1969-12-31T23:59:59.9Z',
  '２026-11-21T00:00:00Z',
  '2026-1-21T00:00:00Z',
  '',
  'Z',
  'not a time',
];

describe('parseRFC3339', () => {
  it.each(CASES)('reads %j as the steps do', agrees);

  it('reads every one-character change of valid times as the steps do', () => {
    const alphabet = '0123456789-:TZz.,+ x';
    for (const base of ['2026-11-21T23:59:59.123456Z', '2024-02-29T05:06:07+05:30']) {
      for (let i = 0; i < base.length; i++) {
        for (const c of alphabet) {
          agrees(base.slice(0, i) + c + base.slice(i + 1));
          agrees(base.slice(0, i) + c + base.slice(i));
        }
        agrees(base.slice(0, i) + base.slice(i + 1));
      }
    }
  });
});
