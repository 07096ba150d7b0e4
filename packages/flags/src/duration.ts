/**
 * Go's time.Duration, parsed and printed exactly as Go does: the daemons' users copy values between
 * Keel and the real components, so `1h0m0s`, `300ms` and Go's error texts must round-trip unchanged.
 */
const NS = 1n;
const US = 1000n * NS;
const MS = 1000n * US;
const S = 1000n * MS;
const M = 60n * S;
const H = 60n * M;
const MAX_INT64 = (1n << 63n) - 1n;

const UNITS: Readonly<Record<string, bigint>> = {
  ns: NS,
  us: US,
  µs: US, // U+00B5 micro sign
  μs: US, // U+03BC Greek mu
  ms: MS,
  s: S,
  m: M,
  h: H,
};

export class Duration {
  private constructor(readonly nanoseconds: bigint) {}

  static readonly zero = new Duration(0n);

  static fromNanoseconds(ns: bigint): Duration {
    return new Duration(ns);
  }
  static fromMilliseconds(ms: number): Duration {
    return new Duration(BigInt(Math.round(ms * 1e6)));
  }
  static fromSeconds(s: number): Duration {
    return new Duration(BigInt(Math.round(s * 1e9)));
  }

  /** Parses a Go duration string; throws an Error carrying Go's own message on bad input. */
  static parse(text: string): Duration {
    return new Duration(parseGoDuration(text));
  }

  /** Milliseconds as a number, for timers. */
  get milliseconds(): number {
    return Number(this.nanoseconds) / 1e6;
  }
  get seconds(): number {
    return Number(this.nanoseconds) / 1e9;
  }
  isZero(): boolean {
    return this.nanoseconds === 0n;
  }
  compare(other: Duration): number {
    return this.nanoseconds < other.nanoseconds ? -1 : this.nanoseconds > other.nanoseconds ? 1 : 0;
  }
  toString(): string {
    return formatGoDuration(this.nanoseconds);
  }
  toJSON(): string {
    return this.toString();
  }
}

function invalid(orig: string): Error {
  return new Error(`time: invalid duration ${JSON.stringify(orig)}`);
}

function parseGoDuration(orig: string): bigint {
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid(orig);
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s);
    const intPart = m?.[1] ?? '';
    const fracPart = m?.[2];
    if (intPart === '' && (fracPart === undefined || fracPart === '')) throw invalid(orig);
    s = s.slice(m?.[0].length ?? 0);
    const unitMatch = /^[^\d.]+/.exec(s);
    if (!unitMatch) throw new Error(`time: missing unit in duration ${JSON.stringify(orig)}`);
    const unitName = unitMatch[0];
    s = s.slice(unitName.length);
    const unit = UNITS[unitName];
    if (unit === undefined) {
      throw new Error(`time: unknown unit ${JSON.stringify(unitName)} in duration ${JSON.stringify(orig)}`);
    }
    let v = intPart === '' ? 0n : BigInt(intPart);
    if (v > MAX_INT64 / unit) throw invalid(orig);
    v *= unit;
    if (fracPart) {
      // Go keeps the fraction as a float and truncates; the exact rational is at least as good.
      const scale = 10n ** BigInt(fracPart.length);
      v += (BigInt(fracPart) * unit) / scale;
    }
    total += v;
    if (total > MAX_INT64) throw invalid(orig);
  }
  return neg ? -total : total;
}

function fmtFrac(v: bigint, prec: number): { text: string; rest: bigint } {
  let text = '';
  let printed = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    printed = printed || digit !== 0n;
    if (printed) text = digit.toString() + text;
    v /= 10n;
  }
  return { text: printed ? '.' + text : '', rest: v };
}

function formatGoDuration(d: bigint): string {
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < S) {
    if (u === 0n) return '0s';
    let prec: number;
    let unit: string;
    if (u < US) {
      prec = 0;
      unit = 'ns';
    } else if (u < MS) {
      prec = 3;
      unit = 'µs';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const { text, rest } = fmtFrac(u, prec);
    out = rest.toString() + text + unit;
  } else {
    const { text, rest } = fmtFrac(u, 9);
    u = rest;
    out = (u % 60n).toString() + text + 's';
    u /= 60n;
    if (u > 0n) {
      out = (u % 60n).toString() + 'm' + out;
      u /= 60n;
      if (u > 0n) out = u.toString() + 'h' + out;
    }
  }
  return neg ? '-' + out : out;
}
