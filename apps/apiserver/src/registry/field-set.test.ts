import { describe, expect, it } from 'vitest';
import { fieldSet, intersect, intersectWire } from './field-set.js';

type Wire = Record<string, unknown>;

// Pairs of (what a client sent, the object after the write) with the shapes the field manager
// meets: nested maps, lists, nulls, server-owned metadata, emptied maps and scalars turned maps.
const CASES: [string, Wire, Wire][] = [
  ['the same object', { a: 1, b: { c: 'x' } }, { a: 1, b: { c: 'x' } }],
  ['fields dropped after the write', { a: 1, b: { c: 'x', d: 2 } }, { b: { d: 3 } }],
  ['a map emptied', { b: { c: 'x' } }, { b: {} }],
  ['a map turned into a scalar', { b: { c: 'x' } }, { b: 'x' }],
  ['a scalar turned into a map', { b: 'x' }, { b: { c: 1 } }],
  ['a list', { l: [1, 2], m: { n: [] } }, { l: [3], m: { n: [{ a: 1 }] } }],
  ['nulls on either side', { a: null, b: { c: null, d: 1 } }, { a: 1, b: { c: 1, d: null } }],
  ['an empty map sent', { b: {} }, { b: { c: 1 } }],
  [
    'metadata, server-owned fields aside',
    {
      apiVersion: 'v1',
      kind: 'X',
      metadata: { name: 'n', generateName: 'g-', labels: { a: 'b' }, resourceVersion: '1' },
    },
    {
      apiVersion: 'v1',
      kind: 'X',
      metadata: { name: 'g-1', uid: 'u', generateName: 'g-', labels: { a: 'c', d: 'e' } },
    },
  ],
  [
    'metadata left with server-owned fields only',
    { metadata: { labels: { a: 'b' } } },
    { metadata: { name: 'n' } },
  ],
  ['metadata missing after', { metadata: { labels: { a: 'b' } }, a: 1 }, { a: 1 }],
  ['nothing after', { a: 1 }, {}],
];

describe('intersectWire', () => {
  it.each(CASES)('is intersect(set, fieldSet(obj)): %s', (_name, sent, after) => {
    const set = fieldSet(sent);
    expect(intersectWire(set, after)).toEqual(intersect(set, fieldSet(after)));
  });

  it('keeps an owned metadata leaf only while metadata has a field of the managers', () => {
    const set = { 'f:metadata': {}, 'f:a': {} };
    for (const after of [
      { metadata: { labels: {} }, a: 1 },
      { metadata: { name: 'n' }, a: 1 },
    ])
      expect(intersectWire(set, after)).toEqual(intersect(set, fieldSet(after)));
    expect(intersectWire(set, { metadata: { labels: {} } })).toEqual({ 'f:metadata': {} });
    expect(intersectWire(set, { metadata: { uid: 'u' } })).toEqual({});
  });
});
