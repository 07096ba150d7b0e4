import type { Field, Root, Type } from 'protobufjs';
import { int64, WIRE_VALUES, type WireValue } from './wire-values.js';

type Json = Record<string, unknown>;

const INLINE = 1;
const DROP_ZERO = 2;

/** How one field maps between the message and the JSON object. */
interface FieldPlan {
  readonly proto: string;
  readonly json: string;
  readonly inline: boolean;
  /**
   * omitempty on a non-pointer Go field: Go's JSON leaves its zero value out. Without it, a nil
   * slice or map (nothing on the wire) is JSON's null.
   */
  readonly dropZero: boolean;
  readonly repeated: boolean;
  readonly map: boolean;
  /** The proto scalar type ('string', 'int64', 'bytes'...), or undefined for a message. */
  readonly scalar: string | undefined;
  readonly message: Type | undefined;
  readonly wire: WireValue | undefined;
  /** A Go slice type (ExtraValue): JSON is the array of its `items`. */
  readonly list: boolean;
}

const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

function fullName(t: Type): string {
  return t.fullName.slice(1);
}

/** JSON↔message conversion for one loaded Root; plans are built per message on first use. */
export class Codec {
  private readonly plans = new Map<Type, readonly FieldPlan[]>();
  private readonly jsonFields: Record<string, Record<string, [string, number]>>;
  private readonly lists: ReadonlySet<string>;

  /** The schema's tables come from the lazily imported schema.generated module. */
  constructor(
    readonly root: Root,
    jsonFields: string,
    listMessages: readonly string[],
  ) {
    this.jsonFields = JSON.parse(jsonFields) as Record<string, Record<string, [string, number]>>;
    this.lists = new Set(listMessages);
  }

  private plan(type: Type): readonly FieldPlan[] {
    let plan = this.plans.get(type);
    if (plan) return plan;
    const tags = this.jsonFields[fullName(type)] ?? {};
    plan = type.fieldsArray.map((f: Field): FieldPlan => {
      f.resolve();
      const [json, flags] = tags[f.name] ?? [f.name, 0];
      const message = f.resolvedType && 'fieldsArray' in f.resolvedType ? f.resolvedType : undefined;
      return {
        proto: f.name,
        json,
        inline: (flags & INLINE) !== 0,
        dropZero: (flags & DROP_ZERO) !== 0,
        repeated: f.repeated,
        map: f.map,
        scalar: message ? undefined : f.type,
        message,
        wire: message ? WIRE_VALUES.get(fullName(message)) : undefined,
        list: message ? this.lists.has(fullName(message)) : false,
      };
    });
    this.plans.set(type, plan);
    return plan;
  }

  /** The message fields (protobufjs's plain form) for a JSON object. */
  toProto(type: Type, json: Json): Json {
    const out: Json = {};
    for (const f of this.plan(type)) {
      if (f.inline) {
        if (f.message) out[f.proto] = this.toProto(f.message, json);
        continue;
      }
      const v = json[f.json];
      if (v === undefined) continue;
      if (v === null) {
        // A pointer's null is nil (left out); a non-pointer's is its zero value, which Go writes.
        if (f.dropZero && f.wire?.zero && !f.repeated && !f.map) out[f.proto] = f.wire.zero;
        continue;
      }
      if (f.map) {
        const entries: Json = {};
        for (const [k, item] of Object.entries(v as Json)) {
          if (item === null) continue;
          const p = this.valueToProto(f, item);
          if (p !== undefined) entries[k] = p;
        }
        out[f.proto] = entries;
      } else if (f.repeated) {
        if (!Array.isArray(v)) throw new Error(`${f.json}: expected an array`);
        out[f.proto] = v.map((item: unknown) => this.valueToProto(f, item) ?? {});
      } else {
        const p = this.valueToProto(f, v);
        if (p !== undefined) out[f.proto] = p;
      }
    }
    return out;
  }

  private valueToProto(f: FieldPlan, v: unknown): unknown {
    if (f.wire) return f.wire.toProto(v);
    if (f.list) return { items: v };
    if (f.message) {
      if (typeof v !== 'object' || v === null || Array.isArray(v))
        throw new Error(`${f.json}: expected an object`);
      return this.toProto(f.message, v as Json);
    }
    switch (f.scalar) {
      case 'string':
        return typeof v === 'string' ? v : String(v);
      case 'bool':
        return v === true;
      // protobufjs's writer reads base64 text for bytes fields itself.
      case 'bytes':
        return typeof v === 'string' ? v : Buffer.from(JSON.stringify(v));
      default:
        return typeof v === 'number' ? v : Number(v);
    }
  }

  /** The JSON object for a decoded message; fields it does not carry stay out. */
  toJson(type: Type, msg: Json, out: Json = {}): Json {
    for (const f of this.plan(type)) {
      if (!Object.hasOwn(msg, f.proto)) continue;
      const v = msg[f.proto];
      if (v === undefined || v === null) continue;
      if (f.inline) {
        if (f.message) this.toJson(f.message, v as Json, out);
        continue;
      }
      if (f.map) {
        const keys = Object.keys(v);
        if (keys.length === 0) {
          if (!f.dropZero) out[f.json] = null;
          continue;
        }
        const entries: Json = {};
        for (const k of keys) entries[k] = this.valueToJson(f, (v as Json)[k]);
        out[f.json] = entries;
      } else if (f.repeated) {
        const items = v as unknown[];
        if (items.length === 0) {
          // No items on the wire is Go's nil slice: left out under omitempty, else JSON's null.
          if (!f.dropZero) out[f.json] = null;
          continue;
        }
        out[f.json] = items.map((item) => this.valueToJson(f, item));
      } else {
        const j = this.valueToJson(f, v);
        if (j === undefined) continue;
        if (f.dropZero && f.scalar !== undefined && (j === '' || j === 0 || j === false)) continue;
        out[f.json] = j;
      }
    }
    return out;
  }

  private valueToJson(f: FieldPlan, v: unknown): unknown {
    if (f.wire) return f.wire.toJson(v as Json);
    if (f.list) return (v as Json)['items'] ?? [];
    if (f.message) return this.toJson(f.message, v as Json);
    if (f.scalar === 'bytes') return Buffer.from(v as Uint8Array).toString('base64');
    if (f.scalar !== undefined && INT64.has(f.scalar)) return int64(v);
    return v;
  }
}
