import type { Duration } from './duration.js';

/** Small validation helpers shared by the options modules; each returns a message or nothing. */

export function checkPort(flag: string, port: number, { allowZero }: { allowZero: boolean }): string[] {
  const min = allowZero ? 0 : 1;
  return port < min || port > 65535 ? [`--${flag} ${port} must be between ${min} and 65535, inclusive`] : [];
}

export function checkNonNegative(flag: string, value: number): string[] {
  return value < 0 ? [`--${flag} must not be negative, got ${value}`] : [];
}

export function checkPositive(flag: string, value: number): string[] {
  return value <= 0 ? [`--${flag} must be greater than 0, got ${value}`] : [];
}

/** Both or neither: a certificate needs its key and the other way round. */
export function checkPaired(a: [string, string], b: [string, string]): string[] {
  const [aFlag, aValue] = a;
  const [bFlag, bValue] = b;
  if (aValue !== '' && bValue === '') return [`--${bFlag} is required when --${aFlag} is set`];
  if (bValue !== '' && aValue === '') return [`--${aFlag} is required when --${bFlag} is set`];
  return [];
}

export function checkOneOf(flag: string, value: string, allowed: readonly string[]): string[] {
  return allowed.includes(value)
    ? []
    : [
        `--${flag} ${JSON.stringify(value)} is not supported; supported values: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
      ];
}

export function checkEachOneOf(
  flag: string,
  values: readonly string[],
  allowed: readonly string[],
): string[] {
  return values.flatMap((v) => checkOneOf(flag, v, allowed));
}

export function checkDurationNonNegative(flag: string, value: Duration): string[] {
  return value.nanoseconds < 0n ? [`--${flag} must not be negative, got ${value.toString()}`] : [];
}

export function checkDurationPositive(flag: string, value: Duration): string[] {
  return value.nanoseconds <= 0n ? [`--${flag} must be greater than 0, got ${value.toString()}`] : [];
}

/** One line per value given more than once; list order is significant to the user, so name it. */
export function checkNoDuplicates(flag: string, values: readonly string[]): string[] {
  const seen = new Set<string>();
  const reported = new Set<string>();
  const out: string[] = [];
  for (const v of values) {
    if (seen.has(v) && !reported.has(v)) {
      out.push(`--${flag} lists ${JSON.stringify(v)} more than once`);
      reported.add(v);
    }
    seen.add(v);
  }
  return out;
}
