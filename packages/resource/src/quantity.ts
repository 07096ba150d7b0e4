/**
 * resource.Quantity (apimachinery pkg/api/resource): parsing with Go's error texts, the exact
 * value (held in nano units, after Go's round-up to 1n), and the canonical string Go writes
 * back (`1000m` → `1`, `1.5Gi` → `1536Mi`, `0.5` → `500m`). A string that already is in
 * canonical form is kept as sent, as Go does (which also keeps a leading `+`).
 */

/** Go's ErrNumeric. */
export const quantityNumericError = "unable to parse quantity's numeric part";

export const quantityFormatError =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const quantitySuffixError = "unable to parse quantity's suffix";

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

export interface Quantity {
  /** The value in units of 10^-9, exact. */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
  /** The input, when Go keeps it as the serialised form. */
  readonly cached?: string;
}

export class QuantityParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityParseError';
  }
}

const decimalSuffixes: Readonly<Record<string, number>> = {
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
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const suffixChars = 'eEinumkKMGTP';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const nano = 10n ** 9n;
const maxInt64 = 2n ** 63n - 1n;

interface Parts {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
  /** Whether the number had any digit: Go's numeric parse refuses "Ki", "e3", ".". */
  hasDigits: boolean;
}

/** Go's parseQuantityString: sign, numerator without leading zeros, fraction, suffix. */
function splitQuantity(s: string): Parts {
  let pos = 0;
  let positive = true;
  if (s[0] === '-' || s[0] === '+') {
    positive = s[0] === '+';
    pos++;
  }
  const signEnd = pos;
  while (s[pos] === '0') pos++;
  if (pos >= s.length) return { positive, num: '0', denom: '', suffix: '', hasDigits: true };
  let start = pos;
  while (isDigit(s[pos])) pos++;
  const num = s.slice(start, pos) || '0';
  let denom = '';
  if (s[pos] === '.') {
    start = ++pos;
    while (isDigit(s[pos])) pos++;
    denom = s.slice(start, pos);
  }
  const hasDigits = /[0-9]/.test(s.slice(signEnd, pos));
  const suffixStart = pos;
  while (pos < s.length && suffixChars.includes(s[pos] ?? '')) pos++;
  if (s[pos] === '-' || s[pos] === '+') pos++;
  while (isDigit(s[pos])) pos++;
  if (pos < s.length) throw new QuantityParseError(quantityFormatError);
  return { positive, num, denom, suffix: s.slice(suffixStart), hasDigits };
}

function interpretSuffix(suffix: string): { base: 10 | 2; exponent: number; format: QuantityFormat } {
  const dec = Object.hasOwn(decimalSuffixes, suffix) ? decimalSuffixes[suffix] : undefined;
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = Object.hasOwn(binarySuffixes, suffix) ? binarySuffixes[suffix] : undefined;
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (
    suffix.length > 1 &&
    (suffix[0] === 'e' || suffix[0] === 'E') &&
    /^[-+]?[0-9]+$/.test(suffix.slice(1))
  ) {
    return { base: 10, exponent: Number(suffix.slice(1)), format: 'DecimalExponent' };
  }
  throw new QuantityParseError(quantitySuffixError);
}

/** `a / b` rounded away from zero (b > 0). */
function divUp(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b === 0n ? q : a < 0n ? q - 1n : q + 1n;
}

/** Whether Go's fast path keeps the input string as the serialised form. */
function keepsInput(p: Parts, base: 10 | 2, exponent: number): boolean {
  const shifted = p.num + p.denom;
  if (base === 10) {
    const scale = exponent - p.denom.length;
    const fast = 18 - shifted.length >= 0 && scale >= -9;
    return fast && scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  }
  if (exponent < 0 || p.denom !== '') return false;
  const precision = 15 - p.num.length - Math.trunc((exponent * 3) / 10) - 1;
  const value = BigInt(p.num);
  const fits = value << BigInt(exponent) <= maxInt64;
  return precision >= 0 && fits && exponent % 10 === 0 && (value & 7n) !== 0n;
}

/** Go's ParseQuantity; throws QuantityParseError with Go's message. */
export function parseQuantity(text: string): Quantity {
  if (text.length === 0) throw new QuantityParseError(quantityFormatError);
  if (text === '0') return { nanos: 0n, format: 'DecimalSI', cached: '0' };
  const p = splitQuantity(text);
  const { base, exponent, format: parsedFormat } = interpretSuffix(p.suffix);
  if (!p.hasDigits) throw new QuantityParseError(quantityNumericError);
  const digits = BigInt(p.num + p.denom);
  let magnitude: bigint;
  if (base === 10) {
    const scale = exponent - p.denom.length + 9;
    magnitude = scale >= 0 ? digits * 10n ** BigInt(scale) : divUp(digits, 10n ** BigInt(-scale));
  } else {
    magnitude = divUp(digits * 2n ** BigInt(exponent) * nano, 10n ** BigInt(p.denom.length));
    if (magnitude > maxInt64 * nano) magnitude = maxInt64 * nano;
  }
  let format = parsedFormat;
  if (format === 'BinarySI' && magnitude > 0n && magnitude < nano) format = 'DecimalSI';
  const nanos = p.positive ? magnitude : -magnitude;
  return keepsInput(p, base, exponent) ? { nanos, format, cached: text } : { nanos, format };
}

/** Strips factors of `base` while the magnitude is at least `base` (Go's removeInt64Factors). */
function removeFactors(v: bigint, base: bigint): [bigint, number] {
  let m = v < 0n ? -v : v;
  let times = 0;
  while (m >= base && m % base === 0n) {
    m /= base;
    times++;
  }
  return [v < 0n ? -m : m, times];
}

const decimalSuffixByExponent = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const binarySuffixByPower = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** Quantity.String(): the kept input, else the canonical form. */
export function formatQuantity(q: Quantity): string {
  if (q.cached !== undefined) return q.cached;
  if (q.nanos === 0n) return '0';
  let format = q.format;
  if (
    format === 'BinarySI' &&
    ((q.nanos > -1024n * nano && q.nanos < 1024n * nano) || q.nanos % nano !== 0n)
  ) {
    format = 'DecimalSI';
  }
  if (format === 'BinarySI') {
    const [m, powers] = removeFactors(q.nanos / nano, 1024n);
    return `${m}${binarySuffixByPower[powers] ?? ''}`;
  }
  const [stripped, times] = removeFactors(q.nanos, 10n);
  let m = stripped;
  let exponent = times - 9;
  const r = exponent % 3;
  if (r === 1 || r === -2) [m, exponent] = [m * 10n, exponent - 1];
  else if (r === 2 || r === -1) [m, exponent] = [m * 100n, exponent - 2];
  if (format === 'DecimalExponent') return exponent === 0 ? `${m}` : `${m}e${exponent}`;
  // Go writes no suffix for exponents outside the table (values past 999E).
  return `${m}${decimalSuffixByExponent.get(exponent) ?? ''}`;
}

/** The canonical wire form of a quantity text; throws QuantityParseError. */
export function canonicalQuantity(text: string): string {
  return formatQuantity(parseQuantity(text));
}

export function compareQuantity(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return a.nanos === b.nanos ? 0 : a.nanos < b.nanos ? -1 : 1;
}

/** Quantity.MilliValue(): milli-units, rounded up. */
export function quantityMilliValue(q: Quantity): bigint {
  return divUp(q.nanos, 10n ** 6n);
}

/** Quantity.Value(): whole units, rounded up. */
export function quantityValue(q: Quantity): bigint {
  return divUp(q.nanos, nano);
}

/** Quantity.Add: the sum, in `a`'s format (Go keeps the receiver's, unless it was zero). */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

/** Quantity.Sub: `a - b`, in `a`'s format. */
export function subtractQuantity(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos - b.nanos, format: a.format };
}

/** resource.NewQuantity / NewMilliQuantity: whole or milli units as a DecimalSI quantity. */
export function quantityOfUnits(units: bigint, milli = false): Quantity {
  return { nanos: units * (milli ? 10n ** 6n : nano), format: 'DecimalSI' };
}
