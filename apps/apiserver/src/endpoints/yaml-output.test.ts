import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toKubeYaml } from './yaml-output.js';
import { goYamlKeyLess, resolvesToNonString } from './yaml-resolve.js';

/** go-yaml reads YAML 1.1: what Keel writes must read back as the same value there. */
const read = (text: string): unknown => parse(text, { schema: 'yaml-1.1', uniqueKeys: true });
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** The value as the reference holds it: JSON, lone surrogates read as U+FFFD. */
const asJson = (v: unknown): unknown => {
  const fix = (x: unknown): unknown => {
    if (typeof x === 'string') return x.replace(LONE_SURROGATE, '\ufffd');
    if (Array.isArray(x)) return x.map(fix);
    if (typeof x !== 'object' || x === null) return x;
    return Object.fromEntries(Object.entries(x).map(([k, y]) => [fix(k), fix(y)]));
  };
  return fix(JSON.parse(JSON.stringify(v)));
};
const onTheWire = (text: string): string => Buffer.from(text).toString('utf8');

// Pieces that each trip a naive writer: YAML 1.1 look-alikes, indicators, spaces and breaks at
// the edges, escapes, astral characters, lone surrogates.
const TRICKY = [
  'on',
  'Off',
  'y',
  'N',
  '~',
  'null',
  '',
  '1_0',
  '0x1F',
  '0o17',
  '017',
  '.5',
  '1e3',
  '12:30',
  '.inf',
  '-.Inf',
  '.nan',
  '<<',
  '2020-01-02',
  '2020-01-02T03:04:05Z',
  '- a',
  '-',
  '?',
  ':',
  'a:',
  'a: b',
  'a #b',
  '#x',
  '---',
  '...',
  ' x',
  'x ',
  '\n',
  'a\n',
  '\na',
  'a \nb',
  'a\n b',
  'a\n\n',
  '\t',
  '\r\n',
  '\u0085',
  '\u2028',
  '\ufeff',
  '\u00a0',
  '"q"',
  "it's",
  '\\',
  '😀',
  '\ud800',
  '*',
  '&a',
  '!t',
  '%',
  '@',
  '`',
  '{}',
  '[]',
  ',',
  '|',
  '>',
  'word '.repeat(20),
];
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc
    .array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ maxLength: 3 })), { maxLength: 6 })
    .map((a) => a.join('')),
);
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(text, tie('v'), { maxKeys: 4 }),
  ),
})).v;

/**
 * Where the reader disagrees with go-yaml (and PyYAML): it takes `.`, `-._` or `e0` for floats,
 * as YAML 1.1's loose regular expressions allow; go-yaml writes those plain and reads strings.
 */
const READER_FLOATS = [
  /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
];
const strings = (x: unknown): string[] => {
  if (typeof x === 'string') return [x];
  if (typeof x !== 'object' || x === null) return [];
  return Object.entries(x).flatMap(([k, y]) => [...(Array.isArray(x) ? [] : [k]), ...strings(y)]);
};

describe('toKubeYaml', () => {
  it('reads back as the JSON value it was given', () => {
    fc.assert(
      fc.property(value, (v) => {
        fc.pre(!strings(v).some((t) => READER_FLOATS.some((f) => f.test(t)) && !resolvesToNonString(t)));
        const json = asJson(v);
        expect(read(onTheWire(toKubeYaml(v)))).toEqual(json);
      }),
      { numRuns: 3000, seed: 20261203 },
    );
  });

  it('writes go-yaml v2 layout: sorted keys, unindented sequences, flow empties', () => {
    expect(toKubeYaml({ b: [1, { y: 2, x: [] }], a: {}, c: [[1, 2]] })).toBe(
      'a: {}\nb:\n- 1\n- x: []\n  "y": 2\nc:\n- - 1\n  - 2\n',
    );
  });

  it.each([
    ['on', '"on"'],
    ['', '""'],
    ['12:30', '"12:30"'],
    ['2020-01-02', '"2020-01-02"'],
    ['*', "'*'"],
    ["it's: x", "'it''s: x'"],
    [' lead', "' lead'"],
    ['a\tb', '"a\\tb"'],
    ['😀', '"\\U0001F600"'],
    ['a\r\nb', '"a\\r\\nb"'],
    ['x\n', '|\n  x\n'],
    ['x', 'x'],
    ['- x', "'- x'"],
    ['-x', '-x'],
  ])('writes %j as %s', (s, want) => {
    expect(toKubeYaml({ k: s })).toBe(`k: ${want}${want.endsWith('\n') ? '' : '\n'}`);
  });

  it('writes numbers as go-yaml: integers as ints, others as strconv g', () => {
    expect(toKubeYaml([3, -0, 0.5, 1234567.5, 1e21, 1e-7, 100000.5])).toBe(
      '- 3\n- 0\n- 0.5\n- 1.2345675e+06\n- 1e+21\n- 1e-07\n- 100000.5\n',
    );
  });

  it('folds long strings past 80 columns at a space, as libyaml', () => {
    const long = 'word '.repeat(30).trim();
    const out = toKubeYaml({ data: { long } });
    expect(out.split('\n')[1]).toBe(`  long: ${'word '.repeat(15).trim()}`);
    expect(read(out)).toEqual({ data: { long } });
  });

  it('writes a key it cannot write simply in the long form', () => {
    expect(toKubeYaml({ 'x\ny': 1 })).toBe('? |-\n  x\n  y\n: 1\n');
    expect(read(toKubeYaml({ ['k'.repeat(129)]: 1 }))).toEqual({ ['k'.repeat(129)]: 1 });
  });

  it('sorts keys as go-yaml: digit runs by value, symbols before letters', () => {
    const keys = ['a10', 'a9', 'b', 'a', 'a_b', 'aB', 'a-b', 'a.b', 'A', 'a01', 'a1'];
    const sorted = [...keys].sort((x, y) => (goYamlKeyLess(x, y) ? -1 : goYamlKeyLess(y, x) ? 1 : 0));
    // keyList.Less: a digit run against a symbol compares 1 with 0, so `a_b` comes before `a1`.
    expect(sorted).toEqual(['A', 'a', 'a-b', 'a.b', 'a_b', 'a1', 'a01', 'a9', 'a10', 'aB', 'b']);
  });
});
