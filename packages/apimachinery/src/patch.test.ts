import { describe, expect, it } from 'vitest';
import { StatusError } from './errors.js';
import type { JsonValue } from './json.js';
import { applyJsonPatch, applyMergePatch } from './patch.js';

function statusOf(fn: () => unknown): StatusError['status'] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    return (err as StatusError).status;
  }
  throw new Error('no error thrown');
}

const invalid422 = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server rejected our request due to an error in our request',
  reason: 'Invalid',
  details: {},
  code: 422,
};

describe('applyJsonPatch', () => {
  const doc = { metadata: { name: 'a', labels: { x: '1' } }, spec: { list: [1, 2] } };

  it.each<[string, unknown[], JsonValue]>([
    ['add', [{ op: 'add', path: '/metadata/labels/y', value: '2' }], { metadata: { name: 'a', labels: { x: '1', y: '2' } }, spec: { list: [1, 2] } }],
    ['replace', [{ op: 'replace', path: '/metadata/name', value: 'b' }], { metadata: { name: 'b', labels: { x: '1' } }, spec: { list: [1, 2] } }],
    ['remove', [{ op: 'remove', path: '/metadata/labels/x' }], { metadata: { name: 'a', labels: {} }, spec: { list: [1, 2] } }],
    ['append', [{ op: 'add', path: '/spec/list/-', value: 3 }], { metadata: { name: 'a', labels: { x: '1' } }, spec: { list: [1, 2, 3] } }],
    [
      'test then move',
      [
        { op: 'test', path: '/metadata/name', value: 'a' },
        { op: 'move', from: '/metadata/labels', path: '/spec/labels' },
      ],
      { metadata: { name: 'a' }, spec: { list: [1, 2], labels: { x: '1' } } },
    ],
    ['copy', [{ op: 'copy', from: '/metadata/name', path: '/spec/name' }], { metadata: { name: 'a', labels: { x: '1' } }, spec: { list: [1, 2], name: 'a' } }],
    ['empty', [], doc],
  ])('%s', (_n, ops, want) => {
    expect(applyJsonPatch(doc, ops)).toEqual(want);
    expect(doc).toEqual({ metadata: { name: 'a', labels: { x: '1' } }, spec: { list: [1, 2] } });
  });

  it.each<[string, unknown[]]>([
    ['failing test', [{ op: 'test', path: '/metadata/name', value: 'zzz' }]],
    ['missing path', [{ op: 'remove', path: '/nope' }]],
    ['replace missing', [{ op: 'replace', path: '/metadata/nope', value: 1 }]],
    ['index out of bounds', [{ op: 'add', path: '/spec/list/9', value: 1 }]],
    ['unknown op', [{ op: 'frobnicate', path: '/a' }]],
    ['fast-json-patch private op', [{ op: '_get', path: '/metadata' }]],
    ['missing op', [{ path: '/a' }]],
  ])('%s → 422 Invalid with Go text', (_n, ops) => {
    expect(statusOf(() => applyJsonPatch(doc, ops))).toEqual(invalid422);
  });

  it('is atomic: a later failure leaves nothing applied', () => {
    const input = { a: 1 };
    expect(() =>
      applyJsonPatch(input, [
        { op: 'add', path: '/b', value: 2 },
        { op: 'test', path: '/a', value: 5 },
      ]),
    ).toThrow(StatusError);
    expect(input).toEqual({ a: 1 });
  });

  it('does not share values with the patch', () => {
    const value = { deep: ['x'] };
    const out = applyJsonPatch({}, [{ op: 'add', path: '/v', value }]) as { v: { deep: string[] } };
    out.v.deep.push('y');
    expect(value).toEqual({ deep: ['x'] });
  });

  it.each([
    [{ op: 'add' }, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['x', 'json: cannot unmarshal string into Go value of type jsonpatch.Patch'],
    [null, 'json: cannot unmarshal null into Go value of type jsonpatch.Patch'],
    [['x'], 'json: cannot unmarshal string into Go value of type jsonpatch.Operation'],
  ])('a non-list patch %j → 400', (ops, message) => {
    expect(statusOf(() => applyJsonPatch({}, ops))).toMatchObject({ reason: 'BadRequest', code: 400, message });
  });

  it('more than 10000 operations → 413', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '', value: {} }));
    expect(statusOf(() => applyJsonPatch({}, ops))).toMatchObject({
      reason: 'RequestEntityTooLarge',
      code: 413,
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    });
  });

  it('refuses prototype pollution', () => {
    expect(statusOf(() => applyJsonPatch({}, [{ op: 'add', path: '/__proto__/polluted', value: 1 }])).code).toBe(422);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('applyMergePatch (RFC 7386 appendix A)', () => {
  it.each<[JsonValue, JsonValue, JsonValue]>([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    [{ a: null }, { a: { b: null, c: 1 } }, { a: { c: 1 } }],
    [['not', 'an', 'object'], { a: { b: null } }, { a: {} }],
  ])('%j + %j', (doc, patch, want) => {
    const before = JSON.stringify(doc);
    expect(applyMergePatch(doc, patch)).toEqual(want);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it.each([[null], [['a']], ['x'], [1]])('a non-object patch %j → 400 Invalid JSON Patch', (patch) => {
    expect(statusOf(() => applyMergePatch({}, patch))).toMatchObject({ reason: 'BadRequest', code: 400, message: 'Invalid JSON Patch' });
  });
});
