import { describe, expect, it } from 'vitest';
import { decodeWire, type DecodeOptions } from './wire-decode.js';
import { encodeStruct } from './wire-encode.js';
import {
  always,
  bool,
  bytes,
  int32,
  list,
  map,
  ptr,
  quantity,
  raw,
  resourceList,
  str,
  stringMap,
  struct,
  time,
} from './wire-spec.js';

const inner = struct('v1.Inner', { a: str, b: always(str) });
const spec = struct('v1.Thing', {
  name: always(str),
  note: str,
  count: int32,
  flag: ptr(bool),
  inner,
  innerPtr: ptr(inner),
  when: time,
  whenPtr: ptr(time),
  labels: stringMap,
  items: always(list(str, '[]string')),
  data: map(bytes, 'map[string][]uint8'),
  res: resourceList,
  q: ptr(quantity),
  blob: ptr(raw),
});

describe('decodeWire: the canonical stored form', () => {
  it('drops omitempty zero values and empty value structs, keeps pointers and non-omitempty lists', () => {
    const { value } = decodeWire(
      {
        name: '',
        note: '',
        count: 0,
        flag: false,
        inner: {},
        innerPtr: {},
        labels: {},
        items: [],
        res: { cpu: '1000m', memory: 1048576 },
        blob: { x: [1] },
      },
      spec,
    );
    expect(value).toEqual({
      flag: false,
      innerPtr: {},
      items: [],
      res: { cpu: '1', memory: '1048576' },
      blob: { x: [1] },
    });
  });

  it('re-encodes bytes in standard padded base64 and keeps null map values as zero', () => {
    expect(decodeWire({ data: { a: 'aGk=', b: null } }, spec).value).toEqual({ data: { a: 'aGk=', b: '' } });
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'a number for a string',
      { note: 5 },
      'json: cannot unmarshal number into Go struct field Thing.note of type string',
    ],
    [
      'a nested field',
      { inner: { a: true } },
      'json: cannot unmarshal bool into Go struct field Inner.inner.a of type string',
    ],
    [
      'a map value',
      { labels: { a: 1 } },
      'json: cannot unmarshal number into Go struct field Thing.labels of type string',
    ],
    [
      'a fraction for int32',
      { count: 1.5 },
      'json: cannot unmarshal number 1.5 into Go struct field Thing.count of type int32',
    ],
    ['bad base64', { data: { a: 'a$==' } }, 'illegal base64 data at input byte 1'],
    ['unpadded base64', { data: { a: 'abc' } }, 'illegal base64 data at input byte 0'],
    [
      'a bad quantity',
      { res: { cpu: 'lots' } },
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ],
    [
      'a bool quantity',
      { q: true },
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ],
  ])('%s fails with Go text', (_name, body, message) => {
    expect(() => decodeWire(body, spec)).toThrow(message);
  });

  it('collects unknown fields by path, list elements indexed', () => {
    const s = struct('v1.L', { xs: list(inner, '[]v1.Inner') });
    expect(decodeWire({ xs: [{ a: 'x', z: 1 }], y: 2 }, s).unknownFields).toEqual(['xs[0].z', 'y']);
  });
});

describe('encodeStruct: Go omitempty rules', () => {
  it('writes non-omitempty zeros, zero structs and times, and omits nil pointers', () => {
    expect(encodeStruct({}, spec)).toEqual({ name: '', inner: { b: '' }, when: null, items: null });
  });

  it('sorts map keys and keeps pointer zero values', () => {
    const out = encodeStruct({ labels: { b: '1', a: '2' }, flag: false, q: '0' }, spec);
    expect(Object.keys(out['labels'] as object)).toEqual(['a', 'b']);
    expect(out['flag']).toBe(false);
    expect(out['q']).toBe('0');
  });
});

describe('decodeWire options: zero values a stored form keeps', () => {
  const owner = struct('v1.Owner', { uid: always(str), kind: always(str), controller: ptr(bool), note: str });
  const s = struct('v1.Holder', {
    labels: stringMap,
    names: list(str, '[]string'),
    owners: list(owner, '[]v1.Owner'),
    owner,
    count: always(int32),
  });

  it.each<[string, Record<string, unknown>, DecodeOptions, Record<string, unknown>]>([
    ['empty collections dropped by default', { labels: {}, names: [] }, {}, {}],
    [
      'empty collections kept',
      { labels: {}, names: [] },
      { keepEmptyCollections: true },
      { labels: {}, names: [] },
    ],
    ['non-omitempty zeros dropped by default', { count: 0, owner: { uid: '' } }, {}, {}],
    ['non-omitempty zeros stored', { count: 0 }, { storeUnomittedZeros: true }, { count: 0 }],
    [
      'non-omitempty scalars filled in, omitempty ones still dropped',
      { owners: [{ kind: 'Pod', note: '' }, null] },
      { storeUnomittedZeros: true },
      {
        owners: [
          { kind: 'Pod', uid: '' },
          { uid: '', kind: '' },
        ],
        count: 0,
      },
    ],
    ['null list elements of a struct are its zero value', { owners: [null] }, {}, { owners: [{}] }],
  ])('%s', (_name, body, options, want) => {
    expect(decodeWire(body, s, options).value).toEqual(want);
  });

  it('fills in members in declaration order after the ones sent', () => {
    const { value } = decodeWire({ owner: { kind: 'Pod', controller: false } }, s, {
      storeUnomittedZeros: true,
    });
    expect(Object.keys(value['owner'] as object)).toEqual(['kind', 'controller', 'uid']);
  });

  it('reports errors the same way whatever the options', () => {
    expect(() =>
      decodeWire({ owners: [{ uid: 1 }] }, s, { storeUnomittedZeros: true, keepEmptyCollections: true }),
    ).toThrow('json: cannot unmarshal number into Go struct field Owner.owners.uid of type string');
  });
});
