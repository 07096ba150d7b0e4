/**
 * A schema-driven JSON → Go struct decoder for already-parsed bodies. It behaves like the
 * Kubernetes JSON serializer (sigs.k8s.io/json, case-sensitive): `null` means the zero value,
 * a wrong JSON type is remembered and decoding goes on (Go reports the first one), a timestamp
 * that does not parse stops at once, and fields the schema does not know are collected as
 * paths for fieldValidation. Errors carry Go's text, e.g.
 * `json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string`.
 */
import { cloneJson, formatMicroTime, formatTime, parseMicroTime, TimeParseError } from '@keel/apimachinery';

export interface StructSpec {
  readonly t: 'struct';
  /** Go's name for the type as reflect prints it, e.g. `v1.ObjectReference`. */
  readonly goType: string;
  readonly fields: Readonly<Record<string, WireSpec>>;
}

export type WireSpec =
  | { readonly t: 'string'; readonly goType?: string }
  | { readonly t: 'int'; readonly goType: 'int32' | 'int64' }
  | { readonly t: 'bool' }
  | { readonly t: 'time' }
  | { readonly t: 'microTime' }
  | StructSpec
  | { readonly t: 'stringMap' }
  | { readonly t: 'list'; readonly goType: string; readonly item: WireSpec }
  | { readonly t: 'raw' };

/** A body Go's decoder refuses; the message is Go's. */
export class WireDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireDecodeError';
  }
}

interface Context {
  /** The innermost Go struct around the current field. */
  struct: string;
  /** JSON names from the root to the current field, as Go's error context keeps them. */
  readonly stack: string[];
  saved: string | undefined;
  readonly unknown: string[];
}

export interface WireDecoded {
  value: Record<string, unknown>;
  unknownFields: string[];
}

/** Decodes `body` (a JSON object) against `spec`; throws WireDecodeError with Go's message. */
export function decodeWire(body: Record<string, unknown>, spec: StructSpec): WireDecoded {
  const ctx: Context = { struct: structName(spec.goType), stack: [], saved: undefined, unknown: [] };
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
  return `json: cannot unmarshal ${value} into Go struct field ${ctx.struct}.${ctx.stack.join('.')} of type ${goType}`;
}

/** Go keeps the first type error and goes on decoding. */
function typeError(ctx: Context, value: string, goType: string): undefined {
  ctx.saved ??= typeMessage(ctx, value, goType);
  return undefined;
}

/** An own property even for keys like `__proto__`. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function decodeStruct(
  obj: Record<string, unknown>,
  spec: StructSpec,
  ctx: Context,
  jsonPath: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(obj)) {
    const childPath = jsonPath ? `${jsonPath}.${key}` : key;
    const fieldSpec = Object.hasOwn(spec.fields, key) ? spec.fields[key] : undefined;
    if (!fieldSpec) {
      ctx.unknown.push(childPath);
      continue;
    }
    const [outerStruct, depth] = [ctx.struct, ctx.stack.length];
    ctx.struct = structName(spec.goType);
    ctx.stack.push(key);
    const decoded = decodeValue(raw, fieldSpec, ctx, childPath);
    ctx.struct = outerStruct;
    ctx.stack.length = depth;
    if (decoded !== undefined) setOwn(out, key, decoded);
  }
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
    case 'struct':
      return isObject(raw)
        ? decodeStruct(raw, spec, ctx, jsonPath)
        : typeError(ctx, jsonKind(raw), spec.goType);
    case 'stringMap':
      return decodeStringMap(raw, ctx);
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

function decodeStringMap(raw: unknown, ctx: Context): Record<string, string> | undefined {
  if (!isObject(raw)) return typeError(ctx, jsonKind(raw), 'map[string]string');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === null) setOwn(out, k, '');
    else if (typeof v === 'string') setOwn(out, k, v);
    else typeError(ctx, jsonKind(v), 'string');
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
    const decoded = decodeValue(item, spec.item, ctx, `${jsonPath}[${i}]`);
    if (decoded !== undefined) return decoded;
    // A null (or failed) element still takes its slot, holding the zero value.
    return spec.item.t === 'struct' ? {} : spec.item.t === 'string' ? '' : null;
  });
}
