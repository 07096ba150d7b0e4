/**
 * The Go JSON encoder over a wire schema: fields in declaration order, omitempty zero values
 * dropped, non-omitempty ones written as Go's zero (`""`, `0`, `false`, `null`), struct values
 * always written (a zero metav1.Time as `null`), nil pointers left out, map keys sorted.
 */
import { cloneJson, compareGoStrings } from '@keel/apimachinery';
import { setOwn } from './wire-decode.js';
import { isEmptyValue, type StructSpec, type WireSpec } from './wire-spec.js';

type Wire = Record<string, unknown>;

function isObject(v: unknown): v is Wire {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What Go writes for an absent (zero) field that is not omitted. */
function zeroValue(spec: WireSpec): unknown {
  switch (spec.t) {
    case 'struct':
      return encodeStruct({}, spec);
    case 'string':
    case 'bytes':
      return '';
    case 'int':
      return 0;
    case 'bool':
      return false;
    case 'quantity':
      return '0';
    default:
      return null;
  }
}

/** Marks a field the encoder leaves out (a sentinel, not an object per field: lists encode a lot). */
const OMIT = Symbol('omit');

function written(spec: WireSpec, v: unknown): unknown {
  if (v === undefined || v === null) {
    if (spec.ptr) return OMIT;
    const alwaysWritten = spec.always || spec.t === 'struct' || spec.t === 'time' || spec.t === 'microTime';
    return alwaysWritten ? zeroValue(spec) : OMIT;
  }
  if (!spec.ptr && !spec.always && isEmptyValue(spec, v)) return OMIT;
  return encodeValue(spec, v);
}

/** Field lists per schema, built once: encoding runs for every item of every list response. */
const fieldLists = new WeakMap<StructSpec, [string, WireSpec][]>();

function fieldsOf(spec: StructSpec): [string, WireSpec][] {
  let list = fieldLists.get(spec);
  if (!list) {
    list = Object.entries(spec.fields);
    fieldLists.set(spec, list);
  }
  return list;
}

export function encodeStruct(obj: Wire | undefined, spec: StructSpec): Wire {
  const out: Wire = {};
  for (const [key, fieldSpec] of fieldsOf(spec)) {
    const v = obj && Object.hasOwn(obj, key) ? obj[key] : undefined;
    const w = written(fieldSpec, v);
    if (w !== OMIT) setOwn(out, key, w);
  }
  return out;
}

export function encodeValue(spec: WireSpec, v: unknown): unknown {
  switch (spec.t) {
    case 'struct':
      return isObject(v) ? encodeStruct(v, spec) : v;
    case 'list':
      return Array.isArray(v)
        ? v.map((item: unknown) =>
            item === null || item === undefined ? zeroValue(spec.item) : encodeValue(spec.item, item),
          )
        : v;
    case 'map': {
      if (!isObject(v)) return v;
      const out: Wire = {};
      for (const k of Object.keys(v).sort(compareGoStrings)) {
        const item = v[k];
        setOwn(
          out,
          k,
          item === null || item === undefined ? zeroValue(spec.value) : encodeValue(spec.value, item),
        );
      }
      return out;
    }
    case 'raw':
      return cloneJson(v);
    default:
      return v;
  }
}
