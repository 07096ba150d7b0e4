import { describe, expect, it } from 'vitest';
import { Duration } from '@keel/flags';
import { goQuote } from '@keel/apimachinery';
import { entriesOf, formatKeyValue, mergeEntries } from './kv-format.js';

describe('goQuote', () => {
  it.each([
    ['plain', '"plain"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['back\\slash', '"back\\\\slash"'],
    ['a\nb\tc\rd', '"a\\nb\\tc\\rd"'],
    ['\x07\b\f\v', '"\\a\\b\\f\\v"'],
    ['esc\x1b[0m', '"esc\\x1b[0m"'],
    ['del\x7f', '"del\\x7f"'],
    ['café ✓ 日本', '"café ✓ 日本"'],
    ['nbsp\u00a0', '"nbsp\\u00a0"'],
    ['zwsp\u200b', '"zwsp\\u200b"'],
    ['emoji 😀', '"emoji 😀"'],
    ['', '""'],
  ])('quotes %j as %s', (input, want) => {
    expect(goQuote(input)).toBe(want);
  });
});

class Stringer {
  toString(): string {
    return 'custom';
  }
}

const circular: Record<string, unknown> = { a: 1 };
circular.self = circular;
const shared = { x: 1 };
const cyclicMap = new Map<string, unknown>();
cyclicMap.set('me', cyclicMap);

describe('formatKeyValue', () => {
  it.each<[string, unknown, string]>([
    ['string', '127.0.0.1:6443', ' k="127.0.0.1:6443"'],
    ['empty string', '', ' k=""'],
    ['quotes in string', 'a "b"', ' k="a \\"b\\""'],
    ['multi-line string', 'line 1\nline 2', ' k=<\n\tline 1\n\tline 2\n >'],
    ['multi-line string ending in a newline', 'line 1\n', ' k=<\n\tline 1\n >'],
    ['integer', 42, ' k=42'],
    ['float', 1.5, ' k=1.5'],
    ['negative', -3, ' k=-3'],
    ['NaN', NaN, ' k=NaN'],
    ['+Inf', Infinity, ' k=+Inf'],
    ['-Inf', -Infinity, ' k=-Inf'],
    ['bigint', 12345678901234567890n, ' k=12345678901234567890'],
    ['true', true, ' k=true'],
    ['false', false, ' k=false'],
    ['undefined', undefined, ' k=<nil>'],
    ['null', null, ' k=<nil>'],
    ['Error: message only', new Error('connection refused'), ' k="connection refused"'],
    ['TypeError', new TypeError('bad type'), ' k="bad type"'],
    ['multi-line error message', new Error('a\nb'), ' k=<\n\ta\n\tb\n >'],
    ['Duration (a Stringer)', Duration.parse('90s'), ' k="1m30s"'],
    ['class with toString', new Stringer(), ' k="custom"'],
    ['Date', new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)), ' k="2024-01-02T03:04:05.006Z"'],
    ['invalid Date', new Date(NaN), ' k="Invalid Date"'],
    ['plain object', { name: 'pods', n: 2 }, ' k={"name":"pods","n":2}'],
    ['array', ['a', 1], ' k=["a",1]'],
    ['nested error', { cause: new Error('inner') }, ' k={"cause":"inner"}'],
    ['nested bigint', { big: 1n }, ' k={"big":"1"}'],
    ['circular object', circular, ' k={"a":1,"self":"[Circular]"}'],
    ['shared, not circular', { a: shared, b: shared }, ' k={"a":{"x":1},"b":{"x":1}}'],
    ['Map', new Map([['a', 1]]), ' k={"a":1}'],
    ['circular Map', cyclicMap, ' k={"me":"[Circular]"}'],
    ['Set', new Set([1, 2]), ' k=[1,2]'],
    ['bytes', Buffer.from('hi\n'), ' k="hi\\n"'],
    ['function', function handler() {}, ' k=<func handler>'],
    ['symbol', Symbol('s'), ' k=Symbol(s)'],
    [
      'toJSON that throws',
      {
        toJSON() {
          throw new Error('nope');
        },
      },
      ' k="<panic: nope>"',
    ],
    [
      'Error whose message getter throws',
      Object.defineProperty(new Error(), 'message', {
        get() {
          throw new Error('getter');
        },
      }),
      ' k="<panic: getter>"',
    ],
  ])('%s', (_name, value, want) => {
    expect(formatKeyValue('k', value)).toBe(want);
  });
});

describe('entriesOf', () => {
  it.each<[string, unknown, unknown[]]>([
    ['undefined', undefined, []],
    ['null', null, []],
    [
      'object in insertion order',
      { b: 1, a: 2 },
      [
        ['b', 1],
        ['a', 2],
      ],
    ],
  ])('%s', (_name, kv, want) => {
    expect(entriesOf(kv)).toEqual(want);
  });

  it('turns a throwing getter into an error value', () => {
    const kv = {
      get bad(): string {
        throw new Error('no');
      },
    };
    const [entry] = entriesOf(kv);
    expect(formatKeyValue(entry?.[0] ?? '', entry?.[1])).toBe(' bad="<panic: no>"');
  });

  it('survives a Proxy whose ownKeys trap throws', () => {
    const kv = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    const [entry] = entriesOf(kv);
    expect(formatKeyValue(entry?.[0] ?? '', entry?.[1])).toBe(' <kv>="<panic: trap>"');
  });
});

describe('mergeEntries', () => {
  it.each<[string, [string, unknown][], [string, unknown][], [string, unknown][]]>([
    ['no call values', [['a', 1]], [], [['a', 1]]],
    ['no base values', [], [['b', 2]], [['b', 2]]],
    [
      'base then call',
      [['a', 1]],
      [['b', 2]],
      [
        ['a', 1],
        ['b', 2],
      ],
    ],
    [
      'call replaces base',
      [
        ['a', 1],
        ['b', 2],
      ],
      [['a', 9]],
      [
        ['b', 2],
        ['a', 9],
      ],
    ],
  ])('%s', (_name, base, call, want) => {
    expect(mergeEntries(base, call)).toEqual(want);
  });
});
