/**
 * Wire schemas: what a Go API struct looks like on the wire, field by field in Go's declaration
 * order, with the Go type names decode errors print and the JSON tags that decide encoding.
 *
 * Flags: `ptr` marks a Go pointer (nil is omitted, a zero value is kept and written); `always`
 * marks a field without `omitempty` (written even when zero: `""`, `0`, `false`, `null`). Struct
 * and time fields that are not pointers are always written (Go never omits struct values).
 */

interface Flags {
  readonly ptr?: boolean;
  readonly always?: boolean;
}

export interface StructSpec extends Flags {
  readonly t: 'struct';
  /** Go's name for the type as reflect prints it, e.g. `v1.ObjectReference`. */
  readonly goType: string;
  readonly fields: Readonly<Record<string, WireSpec>>;
}

export type WireSpec =
  | (Flags & { readonly t: 'string'; readonly goType?: string })
  | (Flags & { readonly t: 'int'; readonly goType: 'int32' | 'int64' })
  | (Flags & { readonly t: 'bool' })
  | (Flags & { readonly t: 'time' })
  | (Flags & { readonly t: 'microTime' })
  /** resource.Quantity: a string or number in, the canonical string out. */
  | (Flags & { readonly t: 'quantity' })
  /** []byte: base64 (standard alphabet, padded) on the wire. */
  | (Flags & { readonly t: 'bytes' })
  | StructSpec
  | (Flags & { readonly t: 'map'; readonly goType: string; readonly value: WireSpec })
  | (Flags & { readonly t: 'list'; readonly goType: string; readonly item: WireSpec })
  /** Kept as sent (a subtree the resource does not model field by field). */
  | (Flags & { readonly t: 'raw' });

export const str: WireSpec = { t: 'string' };
export const int32: WireSpec = { t: 'int', goType: 'int32' };
export const int64: WireSpec = { t: 'int', goType: 'int64' };
export const bool: WireSpec = { t: 'bool' };
export const time: WireSpec = { t: 'time' };
export const microTime: WireSpec = { t: 'microTime' };
export const quantity: WireSpec = { t: 'quantity' };
export const bytes: WireSpec = { t: 'bytes' };
export const raw: WireSpec = { t: 'raw' };
export const stringMap: WireSpec = { t: 'map', goType: 'map[string]string', value: str };

/** A string with a named Go type (`v1.RestartPolicy`), as decode errors print it. */
export function named(goType: string): WireSpec {
  return { t: 'string', goType };
}

export function struct(goType: string, fields: Record<string, WireSpec>): StructSpec {
  return { t: 'struct', goType, fields };
}

export function list(item: WireSpec, goType: string): WireSpec {
  return { t: 'list', goType, item };
}

export function map(value: WireSpec, goType: string): WireSpec {
  return { t: 'map', goType, value };
}

export const resourceList: WireSpec = map(quantity, 'v1.ResourceList');

/** A Go pointer field (`*int64`, `*v1.Affinity`). */
export function ptr<S extends WireSpec>(spec: S): S {
  return { ...spec, ptr: true };
}

/** A field without `omitempty`. */
export function always<S extends WireSpec>(spec: S): S {
  return { ...spec, always: true };
}

/** Whether Go's omitempty drops this value (structs and times are never "empty" to Go). */
export function isEmptyValue(spec: WireSpec, v: unknown): boolean {
  switch (spec.t) {
    case 'string':
    case 'bytes':
      return v === '';
    case 'int':
      return v === 0;
    case 'bool':
      return v === false;
    case 'list':
      return Array.isArray(v) && v.length === 0;
    case 'map':
      return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
    default:
      return false;
  }
}
