import { coreV1EventView, eventsV1View } from '@keel/events';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { byGroupVersion, openapiV2Document } from './documents.js';
import { ProtoWriter } from './protobuf.js';
import { openapiV2Protobuf } from './v2-proto.js';

/** A protobuf message read back: every field number with its values (varints, doubles or bytes). */
type Fields = Map<number, (bigint | number | Buffer)[]>;

function decode(buf: Buffer): Fields {
  const out: Fields = new Map();
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++] ?? 0;
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const tag = Number(varint());
    const [field, type] = [tag >> 3, tag & 7];
    let value: bigint | number | Buffer;
    if (type === 0) value = varint();
    else if (type === 1) {
      value = buf.readDoubleLE(i);
      i += 8;
    } else if (type === 2) {
      const len = Number(varint());
      value = buf.subarray(i, i + len);
      i += len;
    } else throw new Error(`wire type ${type}`);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

const EMPTY: Fields = new Map();
const bytes = (f: Fields, n: number): Buffer[] => (f.get(n) ?? []) as Buffer[];
const text = (f: Fields, n: number): string | undefined => bytes(f, n)[0]?.toString('utf8');
/** A repeated Named* message (name = 1, value = 2) as a map. */
const named = (f: Fields, n: number): Map<string, Fields> =>
  new Map(
    bytes(f, n)
      .map((b) => decode(b))
      .map((e) => [text(e, 1) ?? '', decode(bytes(e, 2)[0] ?? Buffer.alloc(0))]),
  );

describe('ProtoWriter', () => {
  it.each<[string, (w: ProtoWriter) => ProtoWriter, number[]]>([
    ['a string', (w) => w.string(1, 'hi'), [0x0a, 2, 0x68, 0x69]],
    ['an empty string is left out', (w) => w.string(1, ''), []],
    ['true', (w) => w.bool(4, true), [0x20, 1]],
    ['false is left out', (w) => w.bool(4, false), []],
    ['a multi-byte varint', (w) => w.int64(11, 300), [0x58, 0xac, 0x02]],
    ['a negative int64 (ten bytes)', (w) => w.int64(1, -1), [0x08, ...Array<number>(9).fill(0xff), 0x01]],
    ['an empty nested message is written', (w) => w.message(2, Buffer.alloc(0)), [0x12, 0]],
  ])('%s', (_n, build, expected) => {
    expect([...build(new ProtoWriter()).finish()]).toEqual(expected);
  });

  it('writes doubles little-endian with wire type 1', () => {
    const f = decode(new ProtoWriter().double(7, 1.5).finish());
    expect(f.get(7)).toEqual([1.5]);
  });
});

describe('openapiV2Protobuf', () => {
  const doc = openapiV2Document(byGroupVersion([coreV1EventView, eventsV1View]));
  const top = decode(openapiV2Protobuf(doc));

  it('carries swagger, info and the security definition', () => {
    expect(text(top, 1)).toBe('2.0');
    const info = decode(bytes(top, 2)[0] ?? Buffer.alloc(0));
    expect([text(info, 1), text(info, 2)]).toEqual([
      'Kubernetes',
      (doc['info'] as { version: string }).version,
    ]);
    const security = named(decode(bytes(top, 13)[0] ?? Buffer.alloc(0)), 1).get('BearerToken');
    const apiKey = decode(bytes(security ?? EMPTY, 2)[0] ?? Buffer.alloc(0));
    expect([text(apiKey, 1), text(apiKey, 2), text(apiKey, 3)]).toEqual([
      'apiKey',
      'authorization',
      'header',
    ]);
  });

  it('has every definition, with its properties, required fields and GVK extension', () => {
    const defs = named(decode(bytes(top, 9)[0] ?? Buffer.alloc(0)), 1);
    expect([...defs.keys()].sort()).toEqual(Object.keys(doc['definitions'] as object).sort());
    const event = defs.get('io.k8s.api.events.v1.Event') ?? EMPTY;
    const props = named(decode(bytes(event, 25)[0] ?? Buffer.alloc(0)), 1);
    expect([...props.keys()]).toEqual(expect.arrayContaining(['note', 'regarding', 'eventTime', 'metadata']));
    const noteType = decode(bytes(props.get('note') ?? EMPTY, 22)[0] ?? Buffer.alloc(0));
    expect(text(noteType, 1)).toBe('string');
    expect(text(props.get('regarding') ?? EMPTY, 1)).toBe('#/definitions/io.k8s.api.core.v1.ObjectReference');
    expect(bytes(event, 19).map((b) => b.toString())).toEqual(['eventTime']);
    const extensions = new Map(
      bytes(event, 31)
        .map((b) => decode(b))
        .map((e) => [text(e, 1), decode(bytes(e, 2)[0] ?? Buffer.alloc(0))]),
    );
    expect(parseYaml(text(extensions.get('x-kubernetes-group-version-kind') ?? EMPTY, 2) ?? '')).toEqual([
      { group: 'events.k8s.io', kind: 'Event', version: 'v1' },
    ]);
  });

  it('describes the PATCH operation with its query parameters (fieldValidation among them)', () => {
    const paths = named(decode(bytes(top, 8)[0] ?? Buffer.alloc(0)), 2);
    const item = paths.get('/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}') ?? EMPTY;
    const patch = decode(bytes(item, 8)[0] ?? Buffer.alloc(0));
    expect(text(patch, 5)).toBe('patchEventsV1NamespacedEvent');
    const queryNames = bytes(patch, 8)
      .map((b) => decode(bytes(decode(b), 1)[0] ?? Buffer.alloc(0))) // ParametersItem.parameter
      .flatMap((p) => bytes(p, 2)) // Parameter.non_body_parameter
      .flatMap((nb) => bytes(decode(nb), 3)) // NonBodyParameter.query_parameter_sub_schema
      .map((q) => text(decode(q), 4));
    expect(queryNames).toEqual(
      expect.arrayContaining(['dryRun', 'fieldManager', 'fieldValidation', 'force']),
    );
  });
});
