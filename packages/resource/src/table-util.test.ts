import { describe, expect, it } from 'vitest';
import { humanDuration, since } from './table-util.js';

const s = 1e6;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration (apimachinery util/duration)', () => {
  it.each([
    [0, '0s'],
    [-1.5 * s, '0s'],
    [-2 * s, '<invalid>'],
    [59 * s, '59s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [2 * m + 5 * s, '2m5s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 30 * m, '3h30m'],
    [8 * h + 30 * m, '8h'],
    [47 * h, '47h'],
    [48 * h, '2d'],
    [2 * d + 3 * h, '2d3h'],
    [8 * d, '8d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [731 * d, '2y1d'],
    [2919 * d, '7y364d'],
    [2920 * d, '8y'],
    [3000 * d, '8y'],
  ])('%d µs is %s', (micros, want) => {
    expect(humanDuration(micros)).toBe(want);
  });
});

describe('since (translateTimestampSince)', () => {
  const now = new Date('2024-05-03T13:05:00Z');

  it.each<[string | undefined, string]>([
    [undefined, '<unknown>'],
    ['', '<unknown>'],
    ['yesterday', '<unknown>'],
    ['2024-05-03T13:04:00Z', '60s'],
    ['2024-05-03T13:04:59.999999Z', '0s'],
    ['2024-05-01T10:00:00.123456Z', '2d3h'],
    ['2024-05-03T13:05:03Z', '<invalid>'],
  ])('%j is %s old', (timestamp, want) => {
    expect(since(timestamp, now)).toBe(want);
  });
});
