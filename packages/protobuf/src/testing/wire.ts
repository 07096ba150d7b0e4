/**
 * Reads protobuf bytes by field number only (protobufjs's Reader, no schema), so tests check the
 * encoding against the field numbers of the .proto files rather than against Keel's own mapping.
 */
import protobuf from 'protobufjs/minimal.js';

export type Fields = Map<number, (Uint8Array | number)[]>;

export function fields(buf: Uint8Array): Fields {
  const r = protobuf.Reader.create(buf);
  const out: Fields = new Map();
  while (r.pos < r.len) {
    const tag = r.uint32();
    const num = tag >>> 3;
    const wire = tag & 7;
    let v: Uint8Array | number;
    if (wire === 0) v = protobuf.util.LongBits.from(r.int64()).toNumber();
    else if (wire === 2) v = r.bytes();
    else if (wire === 1) v = protobuf.util.LongBits.from(r.fixed64()).toNumber();
    else if (wire === 5) v = r.fixed32();
    else throw new Error(`wire type ${wire}`);
    const list = out.get(num) ?? [];
    list.push(v);
    out.set(num, list);
  }
  return out;
}

/** The value at a path of field numbers (the first occurrence at each step). */
export function at(buf: Uint8Array, ...path: number[]): Uint8Array | number | undefined {
  let cur: Uint8Array | number | undefined = buf;
  for (const num of path) {
    if (!(cur instanceof Uint8Array)) return undefined;
    cur = fields(cur).get(num)?.[0];
  }
  return cur;
}

export function str(buf: Uint8Array, ...path: number[]): string | undefined {
  const v = at(buf, ...path);
  return v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : undefined;
}

/** Every occurrence of the last field of the path (repeated fields, map entries). */
export function all(buf: Uint8Array, ...path: number[]): (Uint8Array | number)[] {
  const last = path[path.length - 1] ?? 0;
  const parent = at(buf, ...path.slice(0, -1));
  return parent instanceof Uint8Array ? (fields(parent).get(last) ?? []) : [];
}

/** A map<string,string> field's entries (key 1, value 2). */
export function map(buf: Uint8Array, ...path: number[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of all(buf, ...path)) if (e instanceof Uint8Array) out[str(e, 1) ?? ''] = str(e, 2) ?? '';
  return out;
}

/** The envelope's apiVersion, kind and raw message; throws when the magic is missing. */
export function unwrap(body: Uint8Array): { apiVersion?: string; kind?: string; raw: Uint8Array } {
  if (Buffer.from(body.subarray(0, 4)).toString('latin1') !== 'k8s\0') throw new Error('no k8s magic');
  const env = body.subarray(4);
  const raw = at(env, 2);
  return {
    apiVersion: str(env, 1, 1),
    kind: str(env, 1, 2),
    raw: raw instanceof Uint8Array ? raw : new Uint8Array(0),
  };
}

/** A message built by field number (the test's own encoder, independent of Keel's mapping). */
export class Msg {
  private readonly w = protobuf.Writer.create();
  string(num: number, v: string): this {
    this.w.uint32((num << 3) | 2).string(v);
    return this;
  }
  bytes(num: number, v: Uint8Array): this {
    this.w.uint32((num << 3) | 2).bytes(v);
    return this;
  }
  int(num: number, v: number): this {
    this.w.uint32(num << 3).int64(v);
    return this;
  }
  bool(num: number, v: boolean): this {
    this.w.uint32(num << 3).bool(v);
    return this;
  }
  msg(num: number, m: Msg | Uint8Array): this {
    return this.bytes(num, m instanceof Msg ? m.finish() : m);
  }
  entry(num: number, k: string, v: string): this {
    return this.msg(num, new Msg().string(1, k).string(2, v));
  }
  finish(): Uint8Array {
    return this.w.finish();
  }
}

/** `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw}. */
export function envelope(apiVersion: string, kind: string, raw: Msg | Uint8Array): Buffer {
  const unknown = new Msg().msg(1, new Msg().string(1, apiVersion).string(2, kind)).msg(2, raw).finish();
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), unknown]);
}
