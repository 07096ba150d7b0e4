import type { QuantityValue } from './types.js';

/**
 * Kubernetes resource quantities (apimachinery resource.Quantity), parsed exactly: the value is
 * kept as a rational of big integers so `0.1`, `100m` and `1e-1` are the same number and rounding
 * happens once, the way kube's Value() and MilliValue() round (up, away from zero).
 *
 *   <quantity> ::= <signedNumber><suffix>
 *   <suffix>   ::= Ki | Mi | Gi | Ti | Pi | Ei | n | u | m | "" | k | M | G | T | P | E | (e|E)<signedNumber>
 *   <number>   ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
 */

const BINARY: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};

const NUMBER = /^([+-]?)(\d+\.?\d*|\.\d+)(.*)$/;
const EXPONENT = /^[eE]([+-]?\d+)$/;

// Beyond these powers of ten the value saturates: int64 cannot hold it, and nothing real needs it.
const MAX_POWER = 40;
const MAX_INT64 = 2n ** 63n - 1n;

export class QuantityError extends Error {
  constructor(input: string) {
    super(
      `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${JSON.stringify(input)}`,
    );
    this.name = 'QuantityError';
  }
}

export class Quantity {
  private constructor(
    /** Sign and magnitude as numerator / denominator; den > 0. */
    private readonly num: bigint,
    private readonly den: bigint,
  ) {}

  static parse(input: QuantityValue): Quantity {
    const text = typeof input === 'number' ? numberText(input) : input;
    const m = NUMBER.exec(text);
    if (!m) throw new QuantityError(text);
    const [, sign = '', digits = '', suffix = ''] = m;
    const [int = '', frac = ''] = digits.split('.');
    let num = BigInt(int + frac || '0');
    let den = 10n ** BigInt(frac.length);
    if (sign === '-') num = -num;
    const binary = BINARY[suffix];
    if (binary !== undefined) return new Quantity(num * 2n ** BigInt(binary), den);
    const exp = DECIMAL[suffix] ?? exponent(suffix, text);
    if (num === 0n) return new Quantity(0n, 1n);
    if (exp > MAX_POWER) return new Quantity(num > 0n ? MAX_INT64 : -MAX_INT64, 1n);
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(Math.min(-exp, MAX_POWER + 30));
    return new Quantity(num, den);
  }

  /** Undefined instead of an exception for malformed input. */
  static tryParse(input: QuantityValue | undefined): Quantity | undefined {
    if (input === undefined) return undefined;
    try {
      return Quantity.parse(input);
    } catch {
      return undefined;
    }
  }

  /** Whole units (bytes for memory), rounded up away from zero, saturating at int64. */
  value(): number {
    return this.scaled(1n);
  }

  /** Thousandths of a unit (millicores for cpu), rounded up away from zero. */
  milliValue(): number {
    return this.scaled(1000n);
  }

  private scaled(factor: bigint): number {
    const n = this.num * factor;
    const neg = n < 0n;
    const abs = neg ? -n : n;
    let q = (abs + this.den - 1n) / this.den;
    if (q > MAX_INT64) q = MAX_INT64;
    return Number(neg ? -q : q);
  }
}

function exponent(suffix: string, text: string): number {
  const m = EXPONENT.exec(suffix);
  if (!m?.[1]) throw new QuantityError(text);
  const e = Number(m[1]);
  // A huge negative exponent rounds to the smallest step; clamp so BigInt powers stay small.
  return Math.max(Math.min(e, MAX_POWER + 1), -(MAX_POWER + 30));
}

function numberText(n: number): string {
  // String(1e21) is "1e+21", which the grammar accepts; NaN and Infinity are not quantities.
  return Number.isFinite(n) ? String(n) : 'invalid';
}

/** Value of `q` in the resource's canonical unit: millicores for cpu, units for everything else. */
export function canonicalValue(resource: string, q: QuantityValue): number | undefined {
  const parsed = Quantity.tryParse(q);
  if (!parsed) return undefined;
  return resource === 'cpu' ? parsed.milliValue() : parsed.value();
}
