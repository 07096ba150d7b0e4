import {
  parseQuantity,
  quantityMilliValue,
  quantityValue,
  QuantityParseError,
  type Quantity as Parsed,
} from '@keel/resource';
import type { QuantityValue } from './types.js';

/**
 * Resource quantities for scheduling arithmetic: @keel/resource parses them exactly (the API
 * server validates with the same code); this adapter gives the scheduler plain numbers, rounded
 * up as kube's Value() and MilliValue() do, saturating at int64's range where JS numbers cannot
 * follow.
 */
const MAX_INT64 = 2n ** 63n - 1n;

function saturate(v: bigint): number {
  if (v > MAX_INT64) return Number(MAX_INT64);
  if (v < -MAX_INT64) return -Number(MAX_INT64);
  return Number(v);
}

function numberText(n: number): string {
  // String(1e21) is "1e+21", which the grammar accepts; NaN and Infinity are not quantities.
  return Number.isFinite(n) ? String(n) : 'invalid';
}

export class QuantityError extends Error {
  constructor(input: string) {
    super(
      `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${JSON.stringify(input)}`,
    );
    this.name = 'QuantityError';
  }
}

export class Quantity {
  private constructor(private readonly parsed: Parsed) {}

  static parse(input: QuantityValue): Quantity {
    const text = typeof input === 'number' ? numberText(input) : input;
    try {
      return new Quantity(parseQuantity(text));
    } catch (err) {
      if (err instanceof QuantityParseError) throw new QuantityError(text);
      throw err;
    }
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

  /** Whole units, rounded up. */
  value(): number {
    return saturate(quantityValue(this.parsed));
  }

  /** Milli-units, rounded up. */
  milliValue(): number {
    return saturate(quantityMilliValue(this.parsed));
  }
}

/** Value of `q` in the resource's canonical unit: millicores for cpu, units for everything else. */
export function canonicalValue(resource: string, q: QuantityValue): number | undefined {
  const parsed = Quantity.tryParse(q);
  if (!parsed) return undefined;
  return resource === 'cpu' ? parsed.milliValue() : parsed.value();
}
