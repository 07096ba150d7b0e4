import { describe, expect, it } from 'vitest';
import { compareGoStrings, goQuote } from './go-quote.js';

describe('goQuote (strconv.Quote)', () => {
  // Expected values follow strconv.Quote's rules (escapes, IsPrint, \x/\u/\U by size).
  it.each([
    ['foo', '"foo"'],
    ['', '""'],
    ['a,b', '"a,b"'],
    ['with space', '"with space"'],
    ['a"b', '"a\\"b"'],
    ['back\\slash', '"back\\\\slash"'],
    ['\t\n\r\x07\b\f\v', '"\\t\\n\\r\\a\\b\\f\\v"'],
    ['\x00\x1f\x7f', '"\\x00\\x1f\\x7f"'],
    ['\u00a0', '"\\u00a0"'],
    ['\u200b', '"\\u200b"'],
    ['héllo✓', '"héllo✓"'],
    ['😀', '"😀"'],
    ['\u{e0001}', '"\\U000e0001"'],
    ['\ud800', '"\\ufffd"'],
  ])('%j → %s', (input, quoted) => {
    expect(goQuote(input)).toBe(quoted);
  });
});

describe('compareGoStrings', () => {
  it('orders by code point like Go, not by UTF-16 unit', () => {
    // U+FF5E is below U+1F600 as a code point but above its UTF-16 surrogates.
    expect(['😀', '～', 'b', 'B', 'a'].sort(compareGoStrings)).toEqual(['B', 'a', 'b', '～', '😀']);
  });
});
