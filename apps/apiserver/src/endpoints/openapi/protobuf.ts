/**
 * The protobuf wire format, as much of it as the OpenAPI v2 document needs: varints, doubles and
 * length-delimited fields. proto3 leaves out fields at their zero value.
 */

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;

function varint(n: bigint): number[] {
  const out: number[] = [];
  // Negative int64 values are encoded as their 64-bit two's complement.
  let v = BigInt.asUintN(64, n);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

function tag(field: number, wireType: number): number[] {
  return varint(BigInt((field << 3) | wireType));
}

/** Builds one message; nested messages are built first and added as bytes. */
export class ProtoWriter {
  private readonly parts: Buffer[] = [];

  string(field: number, value: string | undefined): this {
    if (value === undefined || value === '') return this;
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  strings(field: number, values: readonly string[] | undefined): this {
    for (const v of values ?? []) this.bytes(field, Buffer.from(v, 'utf8'), true);
    return this;
  }

  bool(field: number, value: boolean | undefined): this {
    if (!value) return this;
    this.parts.push(Buffer.from([...tag(field, VARINT), 1]));
    return this;
  }

  int64(field: number, value: number | undefined): this {
    if (value === undefined || value === 0) return this;
    this.parts.push(Buffer.from([...tag(field, VARINT), ...varint(BigInt(Math.trunc(value)))]));
    return this;
  }

  double(field: number, value: number | undefined): this {
    if (value === undefined || value === 0) return this;
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    this.parts.push(Buffer.from(tag(field, FIXED64)), b);
    return this;
  }

  /** A nested message; an absent one is left out, an empty one is written (it is set). */
  message(field: number, value: Buffer | undefined): this {
    return value === undefined ? this : this.bytes(field, value, true);
  }

  messages(field: number, values: readonly Buffer[]): this {
    for (const v of values) this.bytes(field, v, true);
    return this;
  }

  private bytes(field: number, value: Buffer, always = false): this {
    if (!always && value.length === 0) return this;
    this.parts.push(Buffer.from([...tag(field, LENGTH_DELIMITED), ...varint(BigInt(value.length))]), value);
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}
