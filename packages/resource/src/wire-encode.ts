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

function written(spec: WireSpec, v: unknown): { write: boolean; value?: unknown } {
  if (v === undefined || v === null) {
    if (spec.ptr) return { write: false };
    const alwaysWritten = spec.always || spec.t === 'struct' || spec.t === 'time' || spec.t === 'microTime';
    return alwaysWritten ? { write: true, value: zeroValue(spec) } : { write: false };
  }
  if (!spec.ptr && !spec.always && isEmptyValue(spec, v)) return { write: false };
  return { write: true, value: encodeValue(spec, v) };
}

export function encodeStruct(obj: Wire | undefined, spec: StructSpec): Wire {
  const out: Wire = {};
  for (const [key, fieldSpec] of Object.entries(spec.fields)) {
    const v = obj && Object.hasOwn(obj, key) ? obj[key] : undefined;
    const w = written(fieldSpec, v);
    if (w.write) setOwn(out, key, w.value);
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
