/**
 * A schema-driven JSON → Go struct decoder for already-parsed bodies, behaving like the
 * Kubernetes JSON serializer (sigs.k8s.io/json, case-sensitive): `null` is the zero value, a
 * wrong JSON type is remembered and decoding goes on (Go reports the first one), a timestamp or
 * quantity that does not parse stops at once (their UnmarshalJSON errors do), and unknown
 * fields are collected as paths for fieldValidation. Errors carry Go's text, e.g.
 * `json: cannot unmarshal number into Go struct field Container.spec.containers.name of type string`.
 *
 * The result is the canonical stored form: values Go's encoder would drop (omitempty zeros,
 * nulls, empty non-pointer structs) are left out, timestamps and quantities are normalised.
 * DecodeOptions keep some zero values for resources whose stored form has them.
 */
import { cloneJson, formatMicroTime, formatTime, parseMicroTime, TimeParseError } from '@keel/apimachinery';
import { Base64Error, goBase64StdDecode } from './go-base64-std.js';
import { canonicalQuantity, QuantityParseError, quantityFormatError } from './quantity.js';
import { isEmptyValue, type StructSpec, type WireSpec } from './wire-spec.js';

/** A body Go's decoder refuses; the message is Go's. */
export class WireDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireDecodeError';
  }
}

/** Zero values the stored form keeps although Go's encoder would treat them as absent. */
export interface DecodeOptions {
  /**
   * `[]` and `{}` stay as sent: Go decodes them as non-nil empty slices and maps, which matters
   * where emptiness is an instruction (`metadata.managedFields: []` resets managed fields).
   */
  readonly keepEmptyCollections?: boolean;
  /**
   * Scalar fields without omitempty (`always`) are stored with their zero value (`""`, `0`,
   * `false`), even when the body leaves them out, as Go writes them back.
   */
  readonly storeUnomittedZeros?: boolean;
}

interface Context {
  /** The Go type of the innermost struct around the current field (named by structName in errors). */
  struct: string;
  /** JSON names from the root to the current field, as Go's error context keeps them. */
  readonly stack: string[];
  saved: string | undefined;
  readonly unknown: string[];
  readonly options: DecodeOptions;
}

export interface WireDecoded {
  value: Record<string, unknown>;
  unknownFields: string[];
}

/** Decodes `body` (a JSON object) against `spec`; throws WireDecodeError with Go's message. */
export function decodeWire(
  body: Record<string, unknown>,
  spec: StructSpec,
  options: DecodeOptions = {},
): WireDecoded {
  const ctx: Context = { struct: spec.goType, stack: [], saved: undefined, unknown: [], options };
  const value = decodeStruct(body, spec, ctx, '');
  if (ctx.saved !== undefined) throw new WireDecodeError(ctx.saved);
  return { value, unknownFields: ctx.unknown };
}

/** The JSON kind as Go's UnmarshalTypeError names it. */
export function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'object' && v !== null) return 'object';
  return typeof v === 'number' ? 'number' : 'string';
}

function structName(goType: string): string {
  return goType.slice(goType.lastIndexOf('.') + 1);
}

function typeMessage(ctx: Context, value: string, goType: string): string {
  return `json: cannot unmarshal ${value} into Go struct field ${structName(ctx.struct)}.${ctx.stack.join('.')} of type ${goType}`;
}

/** Go keeps the first type error and goes on decoding. */
function typeError(ctx: Context, value: string, goType: string): undefined {
  ctx.saved ??= typeMessage(ctx, value, goType);
  return undefined;
}

/** An own property even for keys like `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Only `__proto__` is an accessor on Object.prototype; plain assignment is many times faster
  // than defineProperty and makes the same own data property for every other key.
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const hasMembers = (spec: WireSpec): boolean => spec.t === 'struct' || spec.t === 'list' || spec.t === 'map';
const isCollection = (spec: WireSpec): boolean => spec.t === 'list' || spec.t === 'map';
const isScalar = (spec: WireSpec): boolean => ['string', 'bytes', 'int', 'bool', 'quantity'].includes(spec.t);

/** Whether the stored form leaves a decoded value out (the encoder writes it back). */
function dropped(spec: WireSpec, v: unknown, options: DecodeOptions): boolean {
  if (spec.ptr) return false;
  if (spec.t === 'struct') return isObject(v) && Object.keys(v).length === 0;
  if (isCollection(spec) && (spec.always || options.keepEmptyCollections)) return false;
  if (spec.always && options.storeUnomittedZeros) return false;
  return isEmptyValue(spec, v);
}

/** storeUnomittedZeros: the non-omitempty scalars the body did not set. */
function fillUnomitted(out: Record<string, unknown>, spec: StructSpec): void {
  for (const [key, fieldSpec] of unomittedScalars(spec)) {
    if (!Object.hasOwn(out, key)) setOwn(out, key, zeroOf(fieldSpec));
  }
}

/**
 * The non-omitempty scalar fields of each schema, found once: every struct of every body is
 * filled from them. Schemas are constants, so a schema's list never changes (nothing to
 * invalidate); the WeakMap lets a schema built at run time (a CRD's) go with its list.
 */
const unomittedLists = new WeakMap<StructSpec, [string, WireSpec][]>();

function unomittedScalars(spec: StructSpec): [string, WireSpec][] {
  let list = unomittedLists.get(spec);
  if (!list) {
    list = Object.entries(spec.fields).filter(([, f]) => f.always === true && isScalar(f));
    unomittedLists.set(spec, list);
  }
  return list;
}

function decodeStruct(
  obj: Record<string, unknown>,
  spec: StructSpec,
  ctx: Context,
  jsonPath: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    const rawValue = obj[key];
    const fieldSpec = Object.hasOwn(spec.fields, key) ? spec.fields[key] : undefined;
    // Only unknown fields and values with members below them need their path.
    const childPath = !fieldSpec || hasMembers(fieldSpec) ? (jsonPath ? `${jsonPath}.${key}` : key) : '';
    if (!fieldSpec) {
      ctx.unknown.push(childPath);
      continue;
    }
    const outerStruct = ctx.struct;
    const depth = ctx.stack.length;
    ctx.struct = spec.goType;
    ctx.stack.push(key);
    const decoded = decodeValue(rawValue, fieldSpec, ctx, childPath);
    ctx.struct = outerStruct;
    ctx.stack.length = depth;
    if (decoded !== undefined && !dropped(fieldSpec, decoded, ctx.options)) setOwn(out, key, decoded);
  }
  if (ctx.options.storeUnomittedZeros) fillUnomitted(out, spec);
  return out;
}

function fitsInt(n: number, goType: 'int32' | 'int64'): boolean {
  if (!Number.isInteger(n)) return false;
  return goType === 'int32' ? n >= -(2 ** 31) && n <= 2 ** 31 - 1 : n >= -(2 ** 63) && n < 2 ** 63;
}

/** Returns undefined for null and for values that failed (the failure is recorded). */
function decodeValue(raw: unknown, spec: WireSpec, ctx: Context, jsonPath: string): unknown {
  if (raw === null || raw === undefined) return undefined;
  switch (spec.t) {
    case 'string':
      return typeof raw === 'string' ? raw : typeError(ctx, jsonKind(raw), spec.goType ?? 'string');
    case 'bool':
      return typeof raw === 'boolean' ? raw : typeError(ctx, jsonKind(raw), 'bool');
    case 'int': {
      if (typeof raw !== 'number') return typeError(ctx, jsonKind(raw), spec.goType);
      // Go names the literal when a number does not fit the integer type.
      return fitsInt(raw, spec.goType) ? raw : typeError(ctx, `number ${String(raw)}`, spec.goType);
    }
    case 'time':
    case 'microTime':
      return decodeTime(raw, spec.t === 'microTime', ctx);
    case 'quantity':
      return decodeQuantity(raw);
    case 'bytes':
      return decodeBytes(raw, ctx);
    case 'struct':
      return isObject(raw)
        ? decodeStruct(raw, spec, ctx, jsonPath)
        : typeError(ctx, jsonKind(raw), spec.goType);
    case 'map':
      return decodeMap(raw, spec, ctx, jsonPath);
    case 'list':
      return decodeList(raw, spec, ctx, jsonPath);
    case 'raw':
      return cloneJson(raw);
  }
}

/** metav1.Time/MicroTime have their own UnmarshalJSON, whose errors end decoding at once. */
function decodeTime(raw: unknown, micro: boolean, ctx: Context): string | undefined {
  if (typeof raw !== 'string') throw new WireDecodeError(typeMessage(ctx, jsonKind(raw), 'string'));
  const t = parseMicroTime(raw);
  if (t instanceof TimeParseError) throw new WireDecodeError(t.message);
  try {
    return (micro ? formatMicroTime(t) : formatTime(t)) ?? undefined;
  } catch (err) {
    // A year outside 0..9999 after moving to UTC: Go could not write it back either.
    throw new WireDecodeError(err instanceof Error ? err.message : String(err));
  }
}

/** Quantity.UnmarshalJSON parses the raw token (quotes stripped), so non-strings fail its regexp. */
function decodeQuantity(raw: unknown): string {
  const text = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : undefined;
  if (text === undefined) throw new WireDecodeError(quantityFormatError);
  try {
    return canonicalQuantity(text);
  } catch (err) {
    if (err instanceof QuantityParseError) throw new WireDecodeError(err.message);
    throw err;
  }
}

/** The stored form is Go's re-encoding (standard, padded base64). */
function decodeBytes(raw: unknown, ctx: Context): string | undefined {
  if (typeof raw !== 'string') return typeError(ctx, jsonKind(raw), '[]uint8');
  try {
    return goBase64StdDecode(raw).toString('base64');
  } catch (err) {
    if (!(err instanceof Base64Error)) throw err;
    ctx.saved ??= err.message;
    return undefined;
  }
}

/** A null value in a map is the value type's zero value. */
function zeroOf(spec: WireSpec): unknown {
  switch (spec.t) {
    case 'string':
    case 'bytes':
      return '';
    case 'quantity':
      return '0';
    case 'int':
      return 0;
    case 'bool':
      return false;
    case 'struct':
      return {};
    default:
      return null;
  }
}

/** The zero value of a list element or map value in stored form (a struct's as decodeStruct stores `{}`). */
function storedZero(spec: WireSpec, ctx: Context, jsonPath: string): unknown {
  return spec.t === 'struct' ? decodeStruct({}, spec, ctx, jsonPath) : zeroOf(spec);
}

function decodeMap(
  raw: unknown,
  spec: Extract<WireSpec, { t: 'map' }>,
  ctx: Context,
  jsonPath: string,
): Record<string, unknown> | undefined {
  if (!isObject(raw)) return typeError(ctx, jsonKind(raw), spec.goType);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    const valuePath = hasMembers(spec.value) ? `${jsonPath}[${k}]` : '';
    const decoded =
      v === null ? storedZero(spec.value, ctx, valuePath) : decodeValue(v, spec.value, ctx, valuePath);
    if (decoded !== undefined) setOwn(out, k, decoded);
  }
  return out;
}

function decodeList(
  raw: unknown,
  spec: Extract<WireSpec, { t: 'list' }>,
  ctx: Context,
  jsonPath: string,
): unknown[] | undefined {
  if (!Array.isArray(raw)) return typeError(ctx, jsonKind(raw), spec.goType);
  return raw.map((item: unknown, i) => {
    const itemPath = hasMembers(spec.item) ? `${jsonPath}[${i}]` : '';
    const decoded = decodeValue(item, spec.item, ctx, itemPath);
    // A null (or failed) element still takes its slot, holding the zero value.
    return decoded !== undefined ? decoded : storedZero(spec.item, ctx, itemPath);
  });
}
