import { describe, expect, it } from 'vitest';
import {
  addQuantity,
  canonicalQuantity,
  compareQuantity,
  formatQuantity,
  parseQuantity,
  quantityMilliValue,
  quantityOfUnits,
  quantityValue,
  subtractQuantity,
  type Quantity,
} from './quantity.js';

// Go keeps an input that passes its fast path as typed, so '+1', '0001' and '1.' stay as sent.
describe('Quantity canonical form (what Go writes back)', () => {
  it.each<[string, string]>([
    ['0', '0'],
    ['100m', '100m'],
    ['1000m', '1'],
    ['1500m', '1500m'],
    ['1.5', '1500m'],
    ['0.5', '500m'],
    ['.5', '500m'],
    ['2', '2'],
    ['1000', '1k'],
    ['1k', '1k'],
    ['128974848', '128974848'],
    ['129e6', '129e6'],
    ['1e3', '1e3'],
    ['1e4', '10e3'],
    ['1Ki', '1Ki'],
    ['1024Mi', '1Gi'],
    ['8Gi', '8Gi'],
    ['1.5Gi', '1536Mi'],
    ['0.5Ki', '512'],
    ['100Mi', '100Mi'],
    ['+1', '+1'],
    ['-1', '-1'],
    ['0.1n', '1n'],
    ['0001', '0001'],
    ['1.', '1.'],
    ['110M', '110M'],
  ])('%s → %s', (input, out) => {
    expect(canonicalQuantity(input)).toBe(out);
  });

  it.each<[string, string]>([
    ['', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['1x', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['1Gb', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['1kk', "unable to parse quantity's suffix"],
    ['1e', "unable to parse quantity's suffix"],
  ])('%j is refused', (input, message) => {
    expect(() => parseQuantity(input)).toThrow(message);
  });

  it.each<[string, string, number]>([
    ['1', '1000m', 0],
    ['1Gi', '1G', 1],
    ['100m', '0.2', -1],
  ])('compares %s with %s', (a, b, want) => {
    expect(compareQuantity(parseQuantity(a), parseQuantity(b))).toBe(want);
  });

  it.each<[string, bigint, bigint]>([
    ['1500m', 1500n, 2n],
    ['1m', 1n, 1n],
    ['1n', 1n, 1n],
    ['2Gi', 2147483648000n, 2147483648n],
  ])('%s has milli value %s and value %s (rounded up)', (q, milli, value) => {
    expect(quantityMilliValue(parseQuantity(q))).toBe(milli);
    expect(quantityValue(parseQuantity(q))).toBe(value);
  });
});

describe('parseQuantity without digits', () => {
  it.each([['Ki'], ['e3'], ['.'], ['-Mi']])('refuses %j as Go does (no numeric part)', (text) => {
    expect(() => parseQuantity(text)).toThrow(
      /unable to parse quantity's numeric part|must match the regular expression/,
    );
  });
});

describe('quantity arithmetic', () => {
  const fmt = (q: Quantity) => formatQuantity(q);
  it('adds exactly, in the first operand format unless it is zero', () => {
    expect(fmt(addQuantity(parseQuantity('100m'), parseQuantity('250m')))).toBe('350m');
    expect(fmt(addQuantity(parseQuantity('1Gi'), parseQuantity('512Mi')))).toBe('1536Mi');
    expect(fmt(addQuantity(parseQuantity('0'), parseQuantity('1Gi')))).toBe('1Gi');
    expect(fmt(addQuantity(parseQuantity('1'), parseQuantity('1Gi')))).toBe('1073741825');
  });
  it('subtracts, going negative when the second is larger', () => {
    expect(fmt(subtractQuantity(parseQuantity('1'), parseQuantity('300m')))).toBe('700m');
    expect(fmt(subtractQuantity(parseQuantity('1'), parseQuantity('2')))).toBe('-1');
  });
  it('builds whole and milli quantities', () => {
    expect(fmt(quantityOfUnits(5n))).toBe('5');
    expect(fmt(quantityOfUnits(1500n, true))).toBe('1500m');
  });
});
