/** Server-generated names and uids (apiserver names/generate.go, util/rand). */
import { randomInt, randomUUID } from 'node:crypto';

/** No vowels (no accidental words) and no 0/1/3 (easily confused with o/l/e). */
export const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

export const randomNameSuffixLength = 5;

/** 63 (a DNS label) minus the random suffix. */
export const maxGeneratedNameLength = 63 - randomNameSuffixLength;

export function randomNameString(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += nameAlphabet[randomInt(nameAlphabet.length)];
  return out;
}

/**
 * `metadata.generateName` → a name: the prefix cut to 58 bytes (Go slices bytes) plus five
 * random characters. The caller validates the result and retries on collision.
 */
export function generateName(prefix: string, random: (length: number) => string = randomNameString): string {
  const bytes = Buffer.from(prefix, 'utf8');
  const base = bytes.length > maxGeneratedNameLength ? bytes.subarray(0, maxGeneratedNameLength).toString('utf8') : prefix;
  return base + random(randomNameSuffixLength);
}

/** A random v4 UUID, lower-case and hyphenated, as `metadata.uid` is written. */
export function newUid(): string {
  return randomUUID();
}
