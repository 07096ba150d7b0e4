import { describe, expect, it } from 'vitest';
import { compareKeys, inScope, keyScope } from './keys.js';

describe('compareKeys', () => {
  it.each([
    ['a', 'b', -1],
    ['a', 'a', 0],
    ['a/', 'a', 1],
    ['a\u0000', 'a/', -1],
    // UTF-8 byte order: U+FFFD (EF BF BD) sorts before U+1F600 (F0 9F 98 80), unlike UTF-16 order.
    ['\ufffd', '\u{1f600}', -1],
    ['\u{1f600}', '\ue000', 1],
  ])('orders %j against %j like Redis ZRANGEBYLEX', (a, b, sign) => {
    expect(Math.sign(compareKeys(a, b))).toBe(sign);
    expect(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)))).toBe(sign);
  });
});

describe('keyScope', () => {
  it.each([
    ['/pods', true, '/pods/a', true],
    ['/pods/', true, '/pods/ns/a', true],
    ['/pods', true, '/podsx/a', false],
    ['/pods/a', false, '/pods/a', true],
    ['/pods/a', false, '/pods/ab', false],
  ])('%s (recursive %s) covers %s: %s', (prefix, recursive, key, covered) => {
    expect(inScope(keyScope(prefix, recursive), key)).toBe(covered);
  });
});
