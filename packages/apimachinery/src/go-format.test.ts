import { describe, expect, it } from 'vitest';
import { compareGoStrings, formatGoNumberV, goJsonMarshal, goQuote, goSprintV, parseGoInt64, parseGoUint64, utf8Length } from './go-format.js';

describe('goQuote (strconv.Quote)', () => {
  it.each([
    ['abc', '"abc"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['tab\there\nnl', '"tab\\there\\nnl"'],
    ['\x07\b\f\r\v', '"\\a\\b\\f\\r\\v"'],
    ['\x00\x1f\x7f', '"\\x00\\x1f\\x7f"'],
    ['über ✓', '"über ✓"'],
    ['\u0085\u00ad', '"\\u0085\\u00ad"'],
    ['\ud800', '"\ufffd"'],
    ['😀', '"😀"'],
  ])('%j → %s', (input, want) => {
    expect(goQuote(input)).toBe(want);
  });
});

describe('goJsonMarshal', () => {
  it.each([
    [{ a: '<b>&' }, '{"a":"\\u003cb\\u003e\\u0026"}'],
    ['\u2028\u2029', '"\\u2028\\u2029"'],
    ['nul\u0000', '"nul\\u0000"'],
    ['lone \ud800', '"lone \\ufffd"'],
    ['literal \\ud800', '"literal \\\\ud800"'],
    [['x', 1, true, null], '["x",1,true,null]'],
    [undefined, 'null'],
  ])('%j → %s', (input, want) => {
    expect(goJsonMarshal(input)).toBe(want);
  });
});

describe('%v formatting', () => {
  it.each([
    [5, '5'],
    [-3, '-3'],
    [1.5, '1.5'],
    [1234567.5, '1.2345675e+06'],
    [0.00001, '1e-05'],
    [0.5, '0.5'],
  ])('number %s → %s', (n, want) => {
    expect(formatGoNumberV(n)).toBe(want);
  });

  it.each([
    [{ b: 1, a: 'x' }, 'map[a:x b:1]'],
    [['a', 'b'], '[a b]'],
    [null, '<nil>'],
    [{ $patch: 'foo', list: [{ name: 'n' }] }, 'map[$patch:foo list:[map[name:n]]]'],
  ])('%j → %s', (v, want) => {
    expect(goSprintV(v)).toBe(want);
  });
});

describe('strconv integers', () => {
  it.each([
    ['42', 42n],
    ['-42', -42n],
    ['+7', 7n],
    ['9223372036854775807', 9223372036854775807n],
  ])('ParseInt(%s)', (s, want) => {
    expect(parseGoInt64(s)).toBe(want);
  });

  it.each([
    ['', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['1_000', 'strconv.ParseInt: parsing "1_000": invalid syntax'],
    ['0x10', 'strconv.ParseInt: parsing "0x10": invalid syntax'],
    ['9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
  ])('ParseInt(%j) fails', (s, msg) => {
    expect(() => parseGoInt64(s)).toThrow(msg);
  });

  it.each([
    ['-1', 'strconv.ParseUint: parsing "-1": invalid syntax'],
    ['+1', 'strconv.ParseUint: parsing "+1": invalid syntax'],
    ['18446744073709551616', 'strconv.ParseUint: parsing "18446744073709551616": value out of range'],
  ])('ParseUint(%j) fails', (s, msg) => {
    expect(() => parseGoUint64(s)).toThrow(msg);
  });

  it('ParseUint accepts the full uint64 range', () => {
    expect(parseGoUint64('18446744073709551615')).toBe(18446744073709551615n);
  });
});

describe('byte semantics', () => {
  it('counts UTF-8 bytes', () => {
    expect(utf8Length('aé😀')).toBe(1 + 2 + 4);
  });

  it('orders strings by UTF-8 bytes like Go', () => {
    // U+FF61 sorts before U+1F600 in UTF-16 units but after it in code points.
    expect(compareGoStrings('\uff61', '😀')).toBeLessThan(0);
    expect(['\uff61', '😀', 'a'].sort(compareGoStrings)).toEqual(['a', '\uff61', '😀']);
  });
});
