import { describe, expect, it } from 'vitest';
import { generateName, nameAlphabet, newUid, randomNameString } from './names.js';
import { isDNS1123Subdomain } from './validation.js';

describe('generateName', () => {
  it.each([
    ['web-', 'web-xxxxx'],
    ['a'.repeat(58), 'a'.repeat(58) + 'xxxxx'],
    ['a'.repeat(70), 'a'.repeat(58) + 'xxxxx'],
    ['', 'xxxxx'],
  ])('%j', (prefix, want) => {
    expect(generateName(prefix, (n) => 'x'.repeat(n))).toBe(want);
  });

  it('cuts by UTF-8 bytes, as Go slices strings', () => {
    expect(Buffer.byteLength(generateName('é'.repeat(40), () => ''), 'utf8')).toBeLessThanOrEqual(58);
  });

  it('uses five characters of the vowel-free alphabet', () => {
    for (let i = 0; i < 50; i++) {
      const name = generateName('p-');
      expect(name).toMatch(/^p-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(isDNS1123Subdomain(name)).toEqual([]);
    }
    expect(nameAlphabet).toBe('bcdfghjklmnpqrstvwxz2456789');
    expect(new Set(Array.from({ length: 200 }, () => randomNameString(5))).size).toBeGreaterThan(190);
  });
});

describe('newUid', () => {
  it('is a lower-case v4 UUID and unique', () => {
    const a = newUid();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newUid()).not.toBe(a);
  });
});
