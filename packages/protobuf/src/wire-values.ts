import { Duration } from '@keel/flags';

/**
 * The messages whose JSON form is not an object of their fields (their Go types have their own
 * MarshalJSON): each one's conversion between the JSON wire form and the message's fields.
 */
export interface WireValue {
  /** The message's fields for a JSON value; undefined leaves the field out. */
  toProto(json: unknown): Record<string, unknown> | undefined;
  /** The JSON value for the decoded message; undefined leaves the member out. */
  toJson(msg: Record<string, unknown>): unknown;
  /**
   * The message Go writes for the zero value of a non-pointer field of this type, which Go's
   * JSON shows as null (a zero metav1.Time: `creationTimestamp: null`); such a null is encoded
   * as this message, so it decodes back to null.
   */
  readonly zero?: Record<string, unknown>;
}

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** protobufjs gives int64 fields as Long objects (or numbers when Long is not installed). */
export function int64(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'object' && v !== null && 'toNumber' in v) return (v as { toNumber(): number }).toNumber();
  return Number(v);
}

function int64Big(v: unknown): bigint {
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  // A Long prints its decimal value.
  if (typeof v === 'object' && v !== null) return BigInt((v as { toString(): string }).toString());
  return 0n;
}

const RFC3339 = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?([Zz]|[+-]\d\d:\d\d)$/;

/** RFC 3339 text to Unix seconds and nanoseconds, as Go's time.Parse reads it. */
export function parseTime(text: string): { seconds: number; nanos: number } {
  const m = RFC3339.exec(text);
  if (!m) throw new Error(`parsing time "${text}" as RFC3339: cannot parse`);
  const [, y, mo, d, h, mi, s, frac = '', zone = 'Z'] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    ms -= sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
  }
  return { seconds: Math.floor(ms / 1000), nanos: Number(frac.padEnd(9, '0')) };
}

function formatTime(seconds: number, nanos: number, micro: boolean): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micro ? `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${base}Z`;
}

function time(micro: boolean): WireValue {
  return {
    toProto: (json) => {
      if (typeof json !== 'string' || json === '') return undefined;
      const { seconds, nanos } = parseTime(json);
      // metav1.Time keeps whole seconds on the wire; MicroTime keeps microseconds.
      return micro ? { seconds, nanos: Math.floor(nanos / 1000) * 1000 } : { seconds };
    },
    toJson: (msg) => {
      const seconds = int64(msg['seconds'] ?? 0);
      const nanos = Number(msg['nanos'] ?? 0);
      // Go writes a zero Time as an empty message and reads one as the zero time, which its
      // JSON writes as null; Go's zero time.Time (year 1) as seconds is read the same way.
      if (seconds === 0 && nanos === 0) return null;
      if (seconds === -62135596800 && nanos === 0) return null;
      return formatTime(seconds, nanos, micro);
    },
    zero: {},
  };
}

/** runtime.RawExtension and metav1.FieldsV1 carry JSON text. */
function rawJson(field: string): WireValue {
  return {
    toProto: (json) => ({ [field]: Buffer.from(JSON.stringify(json), 'utf8') }),
    toJson: (msg) => {
      const raw = msg[field];
      if (!(raw instanceof Uint8Array) || raw.length === 0) return undefined;
      try {
        return JSON.parse(Buffer.from(raw).toString('utf8')) as unknown;
      } catch {
        // Not JSON (an object embedded in another encoding): kept as base64, as Go's JSON encoder does.
        return Buffer.from(raw).toString('base64');
      }
    },
  };
}

export const WIRE_VALUES: ReadonlyMap<string, WireValue> = new Map<string, WireValue>([
  [`${META}.Time`, time(false)],
  [`${META}.MicroTime`, time(true)],
  [
    `${META}.Duration`,
    {
      toProto: (json) =>
        typeof json === 'string' ? { duration: Duration.parse(json).nanoseconds.toString() } : undefined,
      toJson: (msg) => Duration.fromNanoseconds(int64Big(msg['duration'] ?? 0)).toString(),
    },
  ],
  [`${META}.FieldsV1`, rawJson('Raw')],
  ['k8s.io.apimachinery.pkg.runtime.RawExtension', rawJson('raw')],
  [
    'k8s.io.apimachinery.pkg.api.resource.Quantity',
    {
      toProto: (json) => (json === '' ? undefined : { string: String(json) }),
      toJson: (msg) => (typeof msg['string'] === 'string' ? msg['string'] : '0'),
    },
  ],
  [
    'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
    {
      toProto: (json) =>
        typeof json === 'number' ? { type: 0, intVal: json } : { type: 1, strVal: String(json) },
      toJson: (msg) =>
        Number(msg['type'] ?? 0) === 1
          ? typeof msg['strVal'] === 'string'
            ? msg['strVal']
            : ''
          : Number(msg['intVal'] ?? 0),
    },
  ],
]);
