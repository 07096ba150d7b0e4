import { describe, expect, it } from 'vitest';
import { Quantity, QuantityError, canonicalValue } from './quantity.js';

/** int64's maximum as a JS number: where huge quantities saturate. */
const MAX = Number(2n ** 63n - 1n);

describe('Quantity.parse', () => {
  it.each([
    // input, value() (rounded up), milliValue()
    ['100m', 1, 100],
    ['1', 1, 1000],
    ['0', 0, 0],
    ['2', 2, 2000],
    ['1.5', 2, 1500],
    ['0.1', 1, 100],
    ['.5', 1, 500],
    ['1.', 1, 1000],
    ['+3', 3, 3000],
    ['-1', -1, -1000],
    ['-1.5', -2, -1500],
    ['1k', 1000, 1_000_000],
    ['1M', 1_000_000, 1_000_000_000],
    ['1G', 1e9, 1e12],
    ['1T', 1e12, 1e15],
    ['1P', 1e15, 1e18],
    ['1E', 1e18, MAX],
    ['1Ki', 1024, 1_024_000],
    ['500Mi', 524_288_000, 524_288_000_000],
    ['2Gi', 2_147_483_648, 2_147_483_648_000],
    ['1.5Gi', 1_610_612_736, 1_610_612_736_000],
    ['1Ti', 2 ** 40, 2 ** 40 * 1000],
    ['1e3', 1000, 1_000_000],
    ['1E3', 1000, 1_000_000],
    ['1e+3', 1000, 1_000_000],
    ['1e-3', 1, 1],
    ['15e-1', 2, 1500],
    ['250u', 1, 1],
    ['1n', 1, 1],
    ['1500000n', 1, 2],
    ['1e100', MAX, MAX],
    ['1e-100', 1, 1],
    ['0e100', 0, 0],
  ])('%s → value %d, milliValue %d', (input, value, milli) => {
    const q = Quantity.parse(input);
    expect(q.value()).toBe(value);
    expect(q.milliValue()).toBe(milli);
  });

  it.each([
    [2, 2, 2000],
    [0.5, 1, 500],
    [1e21, MAX, MAX],
  ])('accepts the number %d', (input, value, milli) => {
    expect(Quantity.parse(input).value()).toBe(value);
    expect(Quantity.parse(input).milliValue()).toBe(milli);
  });

  it.each(['', ' 1', '1 ', 'abc', 'Ki', '1.5.5', '1e', '1Gb', '1KI', '--1', '1e1.5', '1i', 'e3', '1m1'])(
    'rejects %j',
    (input) => {
      expect(() => Quantity.parse(input)).toThrow(QuantityError);
      expect(Quantity.tryParse(input)).toBeUndefined();
    },
  );

  it('rejects non-finite numbers', () => {
    expect(() => Quantity.parse(Number.NaN)).toThrow(QuantityError);
    expect(() => Quantity.parse(Number.POSITIVE_INFINITY)).toThrow(QuantityError);
  });

  it('names the bad input in the error', () => {
    expect(() => Quantity.parse('1Gb')).toThrow(
      `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': "1Gb"`,
    );
  });
});

describe('canonicalValue', () => {
  it.each([
    ['cpu', '250m', 250],
    ['cpu', '2', 2000],
    ['memory', '1Gi', 1_073_741_824],
    ['nvidia.com/gpu', '2', 2],
    ['pods', '110', 110],
    ['memory', 'bogus', undefined],
  ])('%s %s → %s', (resource, q, want) => {
    expect(canonicalValue(resource, q)).toBe(want);
  });
});
