import { describe, expect, it } from 'vitest';
import { goJsonSyntaxError, jsonNestsTooDeep, MAX_NESTING_DEPTH } from './go-json-syntax.js';

describe('goJsonSyntaxError', () => {
  it.each(['{}', '[]', ' {"a":[1,-2.5e+3,true,false,null,"x\\u00e9\\n"]} ', '0', '"s"', '[ ]', '{ }', '1E5'])(
    '%j is valid',
    (text) => {
      expect(goJsonSyntaxError(text)).toBeUndefined();
    },
  );

  it.each([
    ['', 'unexpected end of JSON input'],
    ['{"a"', 'unexpected end of JSON input'],
    ['[1,', 'unexpected end of JSON input'],
    ['xyz', "invalid character 'x' looking for beginning of value"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b"}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['{1:2}', "invalid character '1' looking for beginning of object key string"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['-a', "invalid character 'a' in numeric literal"],
    ['1.e5', "invalid character 'e' after decimal point in numeric literal"],
    // At the end Go feeds one space through the scanner, so a cut-off literal reports that space.
    ['1e+', "invalid character ' ' in exponent of numeric literal"],
    ['-', "invalid character ' ' in numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['01', "invalid character '1' after top-level value"],
    ['nul', "invalid character ' ' in literal null (expecting 'l')"],
    ['"abc', 'unexpected end of JSON input'],
    ['nope', "invalid character 'o' in literal null (expecting 'u')"],
    ['tru3', "invalid character '3' in literal true (expecting 'e')"],
    ['[é]', "invalid character 'Ã' looking for beginning of value"],
  ])('%j → %s', (text, message) => {
    expect(goJsonSyntaxError(text)).toBe(message);
  });
  it.each([
    [[0x81, 0xaa], "invalid character '\\u0081' looking for beginning of value"],
    [[0x22, 0xff, 0x22, 0x78], "invalid character 'x' after top-level value"],
    [[0x5b, 0xc3, 0xa9, 0x5d], "invalid character 'Ã' looking for beginning of value"],
    [[0x7b, 0x7d], undefined],
  ])('bytes %j → %s', (bytes, message) => {
    expect(goJsonSyntaxError(Uint8Array.from(bytes))).toBe(message);
  });
});

describe('jsonNestsTooDeep', () => {
  const bytes = (s: string) => Buffer.from(s, 'utf8');

  it('takes Go’s limit and refuses one level more, short texts included', () => {
    const d = MAX_NESTING_DEPTH;
    expect(jsonNestsTooDeep(bytes(`${'['.repeat(d)}${']'.repeat(d)}`))).toBe(false);
    expect(jsonNestsTooDeep(bytes(`${'['.repeat(d + 1)}${']'.repeat(d + 1)}`))).toBe(true);
    // Exactly one byte per level, unclosed: the shortest text over the limit.
    expect(jsonNestsTooDeep(bytes('{'.repeat(d + 1)))).toBe(true);
    expect(jsonNestsTooDeep(bytes('{'.repeat(d)))).toBe(false);
    expect(jsonNestsTooDeep(bytes('{"a":1}'))).toBe(false);
  });

  it('does not count brackets inside strings', () => {
    const d = MAX_NESTING_DEPTH;
    expect(jsonNestsTooDeep(bytes(JSON.stringify({ s: '['.repeat(2 * d) })))).toBe(false);
    expect(jsonNestsTooDeep(bytes(`["\\"${'['.repeat(2 * d)}"]`))).toBe(false);
  });
});
