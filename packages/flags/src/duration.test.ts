import { describe, expect, it } from 'vitest';
import { Duration } from './duration.js';

describe('Duration', () => {
  it.each([
    ['0', '0s'],
    ['1h0m0s', '1h0m0s'],
    ['5m', '5m0s'],
    ['300ms', '300ms'],
    ['2s', '2s'],
    ['1.5h', '1h30m0s'],
    ['1h30m', '1h30m0s'],
    ['-1m', '-1m0s'],
    ['+10s', '10s'],
    ['1µs', '1µs'],
    ['1μs', '1µs'],
    ['1us', '1µs'],
    ['1500ns', '1.5µs'],
    ['.5s', '500ms'],
    ['1.s', '1s'],
    ['2562047h47m16.854775807s', '2562047h47m16.854775807s'],
    ['100h', '100h0m0s'],
  ])('parses %s and prints it the Go way as %s', (input, printed) => {
    expect(Duration.parse(input).toString()).toBe(printed);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['5', 'time: missing unit in duration "5"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['1 h', 'time: unknown unit " h" in duration "1 h"'],
    ['.s', 'time: invalid duration ".s"'],
    ['1m-1s', 'time: unknown unit "m-" in duration "1m-1s"'],
    ['1.2.3s', 'time: missing unit in duration "1.2.3s"'],
    ['9999999999999h', 'time: invalid duration "9999999999999h"'],
    ['abc', 'time: invalid duration "abc"'],
  ])('rejects %j with Go’s message', (input, message) => {
    expect(() => Duration.parse(input)).toThrow(message);
  });

  it('converts to milliseconds and seconds', () => {
    expect(Duration.parse('1m30s').milliseconds).toBe(90_000);
    expect(Duration.parse('250ms').seconds).toBe(0.25);
    expect(Duration.fromSeconds(3600).toString()).toBe('1h0m0s');
    expect(Duration.fromMilliseconds(1).toString()).toBe('1ms');
  });
});
