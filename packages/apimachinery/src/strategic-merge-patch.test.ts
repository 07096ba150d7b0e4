import { describe, expect, it } from 'vitest';
import { StatusError } from './errors.js';
import type { JsonObject } from './json.js';
import { objectMetaSmpSchema, type SmpSchema } from './smp-support.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

/** The MergeItem test struct of upstream strategicpatch/patch_test.go, as a schema. */
const mergeItem: SmpSchema = {
  mergingList: 'name',
  'mergingList.mergingList': 'name',
  mergingIntList: { patchStrategy: 'merge' },
  'mergingList.mergingIntList': { patchStrategy: 'merge' },
  replacingItem: { patchStrategy: 'replace' },
  retainKeysMap: { patchStrategy: 'retainKeys' },
  'retainKeysMap.mergingList': 'name',
  retainKeysMergingList: { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' },
};

describe('upstream strategicpatch test cases (MergeItem)', () => {
  it.each<[string, JsonObject, JsonObject, JsonObject]>([
    ['unique scalars when merging lists', { mergingIntList: [1, 2] }, { mergingIntList: [2, 3] }, { mergingIntList: [1, 2, 3] }],
    ['delete map from nested map', { simpleMap: { key1: 1, key2: 1 } }, { simpleMap: { $patch: 'delete' } }, { simpleMap: {} }],
    ['delete all items from merging list', { mergingList: [{ name: 1 }, { name: 2 }] }, { mergingList: [{ $patch: 'replace' }] }, { mergingList: [] }],
    ['merge empty merging lists', { mergingList: [] }, { mergingList: [] }, { mergingList: [] }],
    ['delete all keys from map', { name: 1, value: 1 }, { $patch: 'replace' }, {}],
    ['add key and delete all keys from map', { name: 1, value: 1 }, { other: 'a', $patch: 'replace' }, { other: 'a' }],
    [
      'delete all duplicate entries in a merging list',
      { mergingList: [{ name: 1 }, { name: 1 }, { name: 2, value: 'a' }, { name: 3 }, { name: 3 }] },
      { mergingList: [{ name: 1, $patch: 'delete' }, { name: 3, $patch: 'delete' }] },
      { mergingList: [{ name: 2, value: 'a' }] },
    ],
    ['retainKeys map can add a field', { retainKeysMap: { name: 'foo' } }, { retainKeysMap: { value: 'bar' } }, { retainKeysMap: { name: 'foo', value: 'bar' } }],
    ['retainKeys map can delete a field', { retainKeysMap: { name: 'foo', value: 'a' } }, { retainKeysMap: { value: null } }, { retainKeysMap: { name: 'foo' } }],
    ['retainKeys map merge an empty map', { retainKeysMap: { name: 'foo', value: 'a' } }, { retainKeysMap: {} }, { retainKeysMap: { name: 'foo', value: 'a' } }],
    [
      'retainKeys list can change a field',
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'a' }] },
      { retainKeysMergingList: [{ name: 'foo', value: 'b' }] },
      { retainKeysMergingList: [{ name: 'bar' }, { name: 'foo', value: 'b' }] },
    ],
    [
      'preserve the order from the patch in a merging list',
      { mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] },
      { mergingList: [{ name: 3, value: 'c' }, { name: 1, value: 'a' }, { name: 2, other: 'x' }] },
      { mergingList: [{ name: 3, value: 'c' }, { name: 1, value: 'a' }, { name: 2, value: 'b', other: 'x' }] },
    ],
    [
      'preserve the order from the patch in a merging list 2',
      { mergingList: [{ name: 1 }, { name: 2, value: 'b' }, { name: 3 }] },
      { mergingList: [{ name: 3, value: 'c' }, { name: 1, value: 'a' }] },
      { mergingList: [{ name: 2, value: 'b' }, { name: 3, value: 'c' }, { name: 1, value: 'a' }] },
    ],
    ['preserve the order in a merging int list', { mergingIntList: [1, 2, 3] }, { mergingIntList: [3, 1, 2] }, { mergingIntList: [3, 1, 2] }],
    ['preserve the order in a merging int list 2', { mergingIntList: [1, 2, 3] }, { mergingIntList: [3, 1] }, { mergingIntList: [2, 3, 1] }],
    [
      '$setElementOrder contains item that is not present in the list to be merged',
      { mergingList: [{ name: 1 }, { name: 3 }] },
      { '$setElementOrder/mergingList': [{ name: 3 }, { name: 2 }, { name: 1 }], mergingList: [{ name: 3, value: 3 }, { name: 1, value: 1 }] },
      { mergingList: [{ name: 3, value: 3 }, { name: 1, value: 1 }] },
    ],
    [
      '$setElementOrder contains item that is not present in the int list to be merged',
      { mergingIntList: [1, 3] },
      { '$setElementOrder/mergingIntList': [3, 2, 1] },
      { mergingIntList: [3, 1] },
    ],
    ['$deleteFromPrimitiveList of nonexistent item', { mergingIntList: [1, 2] }, { '$deleteFromPrimitiveList/mergingIntList': [3] }, { mergingIntList: [1, 2] }],
    ['$deleteFromPrimitiveList on a null list', { mergingIntList: null }, { '$deleteFromPrimitiveList/mergingIntList': [3] }, { mergingIntList: null }],
    ['$deleteFromPrimitiveList on a missing list', { foo: ['bar'] }, { '$deleteFromPrimitiveList/mergingIntList': [3] }, { foo: ['bar'] }],
    ['$deleteFromPrimitiveList with merge strategy', { mergingIntList: [1, 2, 3] }, { '$deleteFromPrimitiveList/mergingIntList': [2] }, { mergingIntList: [1, 3] }],
    ['$deleteFromPrimitiveList without merge strategy', { nonMergingIntList: [1, 2, 3] }, { '$deleteFromPrimitiveList/nonMergingIntList': [2] }, { nonMergingIntList: [1, 3] }],
    ['nil patch', { name: 1 }, {}, { name: 1 }],
    ['defined null values', { name: 2 }, { name: 1, value: 1, other: null }, { name: 1, value: 1 }],
    ['replace list of scalars', { nonMergingIntList: [1, 2] }, { nonMergingIntList: [2, 3] }, { nonMergingIntList: [2, 3] }],
    [
      'nested patch merge with empty list',
      { name: 'hi' },
      { mergingList: [{ name: 'hello' }, { $patch: 'delete', name: 'doesntexist' }] },
      { name: 'hi', mergingList: [{ name: 'hello' }] },
    ],
    [
      'delete items in lists of scalars',
      { mergingIntList: [1, 2, 3, 4] },
      { '$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3] },
      { mergingIntList: [1, 2, 4] },
    ],
    [
      'delete all duplicate items in lists of scalars',
      { mergingIntList: [1, 2, 3, 3, 4] },
      { '$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3] },
      { mergingIntList: [1, 2, 4] },
    ],
    [
      'add and delete items in lists of scalars',
      { mergingIntList: [1, 2, 3, 4] },
      { '$setElementOrder/mergingIntList': [1, 2, 4], '$deleteFromPrimitiveList/mergingIntList': [3], mergingIntList: [4] },
      { mergingIntList: [1, 2, 4] },
    ],
    [
      'merge lists of maps',
      { mergingList: [{ name: 1, other: 'a' }, { name: 2, value: 2, other: 'b' }] },
      {
        '$setElementOrder/mergingList': [{ name: 4 }, { name: 1 }, { name: 2 }, { name: 3 }],
        mergingList: [
          { name: 4, value: 4 },
          { name: 3, value: 3 },
        ],
      },
      { mergingList: [{ name: 4, value: 4 }, { name: 1, other: 'a' }, { name: 2, value: 2, other: 'b' }, { name: 3, value: 3 }] },
    ],
    ['replace strategy on a map', { replacingItem: { a: 1, b: 2 } }, { replacingItem: { c: 3 } }, { replacingItem: { c: 3 } }],
    ['$retainKeys clears other keys', { retainKeysMap: { name: 'foo', other: 'y' } }, { retainKeysMap: { $retainKeys: ['value'], value: 'x' } }, { retainKeysMap: { value: 'x' } }],
    ['new maps lose their nulls', {}, { simpleMap: { a: null, b: { c: null, d: 1 } } }, { simpleMap: { b: { d: 1 } } }],
    ['nested merge lists', { mergingList: [{ name: 'a', mergingList: [{ name: 'x', value: 1 }] }] }, { mergingList: [{ name: 'a', mergingList: [{ name: 'x', value: 2 }] }] }, { mergingList: [{ name: 'a', mergingList: [{ name: 'x', value: 2 }] }] }],
  ])('%s', (_n, original, patch, want) => {
    const before = JSON.stringify([original, patch]);
    expect(applyStrategicMergePatch(original, patch, mergeItem)).toEqual(want);
    expect(JSON.stringify([original, patch])).toBe(before);
  });
});

/** The patch-strategy tags of the Pod, Event and ObjectMeta fields used below. */
const podSchema: SmpSchema = {
  ...objectMetaSmpSchema,
  'spec.containers': 'name',
  'spec.containers.ports': 'containerPort',
  'status.conditions': 'type',
  'spec.volumes': { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' },
};

describe('Kubernetes objects', () => {
  const pod: JsonObject = {
    metadata: { name: 'p', labels: { x: '1', y: '2' }, finalizers: ['a', 'b'], ownerReferences: [{ uid: '1', kind: 'RS', name: 'rs' }] },
    spec: {
      containers: [
        { name: 'app', image: 'app:1', ports: [{ containerPort: 80 }] },
        { name: 'sidecar', image: 'side:1' },
      ],
      tolerations: [{ key: 'a', operator: 'Exists' }],
    },
    status: {
      conditions: [
        { type: 'Ready', status: 'False' },
        { type: 'PodScheduled', status: 'True' },
      ],
    },
  };

  it.each<[string, JsonObject, (p: JsonObject) => unknown, unknown]>([
    [
      'merges pod conditions by type',
      { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      (p) => (p['status'] as JsonObject)['conditions'],
      [
        { type: 'Ready', status: 'True' },
        { type: 'PodScheduled', status: 'True' },
      ],
    ],
    [
      'a new condition goes before the server-only ones without $setElementOrder',
      { status: { conditions: [{ type: 'Initialized', status: 'True' }] } },
      (p) => ((p['status'] as JsonObject)['conditions'] as JsonObject[]).map((c) => c['type']),
      ['Initialized', 'Ready', 'PodScheduled'],
    ],
    [
      'kubectl-style patch keeps the requested order',
      { status: { '$setElementOrder/conditions': [{ type: 'Ready' }, { type: 'PodScheduled' }, { type: 'Initialized' }], conditions: [{ type: 'Initialized', status: 'True' }] } },
      (p) => ((p['status'] as JsonObject)['conditions'] as JsonObject[]).map((c) => c['type']),
      ['Ready', 'PodScheduled', 'Initialized'],
    ],
    [
      'deletes a container with $patch: delete',
      { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } },
      (p) => (p['spec'] as JsonObject)['containers'],
      [{ name: 'app', image: 'app:1', ports: [{ containerPort: 80 }] }],
    ],
    [
      'updates one container image',
      { spec: { containers: [{ name: 'app', image: 'app:2' }] } },
      (p) => (p['spec'] as JsonObject)['containers'],
      [
        { name: 'app', image: 'app:2', ports: [{ containerPort: 80 }] },
        { name: 'sidecar', image: 'side:1' },
      ],
    ],
    [
      'replaces tolerations (no merge key)',
      { spec: { tolerations: [{ key: 'b', operator: 'Equal', value: 'x' }] } },
      (p) => (p['spec'] as JsonObject)['tolerations'],
      [{ key: 'b', operator: 'Equal', value: 'x' }],
    ],
    ['merges finalizers as a set', { metadata: { finalizers: ['c', 'a'] } }, (p) => (p['metadata'] as JsonObject)['finalizers'], ['c', 'a', 'b']],
    ['removes a finalizer', { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }, (p) => (p['metadata'] as JsonObject)['finalizers'], ['b']],
    [
      'merges owner references by uid',
      { metadata: { ownerReferences: [{ uid: '1', controller: true }] } },
      (p) => (p['metadata'] as JsonObject)['ownerReferences'],
      [{ uid: '1', kind: 'RS', name: 'rs', controller: true }],
    ],
    ['deletes a label with null', { metadata: { labels: { x: null } } }, (p) => (p['metadata'] as JsonObject)['labels'], { y: '2' }],
  ])('%s', (_n, patch, pick, want) => {
    expect(pick(applyStrategicMergePatch(pod, patch, podSchema))).toEqual(want);
  });

  it('applies the events recorder series patch', () => {
    const event: JsonObject = { metadata: { name: 'e' }, note: 'n', series: { count: 2, lastObservedTime: '2024-05-01T10:00:00.000000Z' } };
    expect(applyStrategicMergePatch(event, { series: { count: 3, lastObservedTime: '2024-05-01T10:01:00.000000Z' } })).toEqual({
      metadata: { name: 'e' },
      note: 'n',
      series: { count: 3, lastObservedTime: '2024-05-01T10:01:00.000000Z' },
    });
  });

  it('a null patch changes nothing', () => {
    expect(applyStrategicMergePatch(pod, null, podSchema)).toEqual(pod);
  });
});

describe('errors', () => {
  function statusOf(fn: () => unknown): StatusError['status'] {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(StatusError);
      return (err as StatusError).status;
    }
    throw new Error('no error thrown');
  }

  it.each<[string, JsonObject, unknown, Record<string, unknown>]>([
    ['an array patch', {}, [1], { code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal array into Go value of type map[string]interface {}' }],
    ['a string patch', {}, 'x', { code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal string into Go value of type map[string]interface {}' }],
    [
      'a deletion list without a field',
      { a: [1] },
      { $deleteFromPrimitiveList: [1] },
      { code: 400, reason: 'BadRequest', message: 'invalid patch format of primitive list' },
    ],
    [
      'a patch key missing from $retainKeys',
      { retainKeysMap: { name: 'foo' } },
      { retainKeysMap: { $retainKeys: ['name'], value: 'x' } },
      { code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
    ],
    ['$retainKeys not a list', { retainKeysMap: {} }, { retainKeysMap: { $retainKeys: 'name' } }, { code: 400, message: 'invalid patch format of retainKeys' }],
    ['a malformed $setElementOrder key', { a: [1] }, { $setElementOrder: [1] }, { code: 400, message: 'invalid patch type of setElementOrder list' }],
    ['lists of lists', { mergingIntList: [] }, { mergingIntList: [[1]] }, { code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' }],
    ['$patch: merge in a list', { mergingList: [{ name: 1 }] }, { mergingList: [{ $patch: 'merge' }] }, { code: 400, reason: 'BadRequest', message: 'merging lists cannot yet be specified in the patch' }],
    ['an unknown $patch in a map', { simpleMap: { a: 1 } }, { simpleMap: { $patch: 'foo' } }, { code: 400, reason: 'BadRequest', message: 'unknown patch type: foo in map: map[$patch:foo]' }],
    [
      'a missing merge key',
      { mergingList: [{ name: 1, value: 'a' }] },
      { mergingList: [{ value: 'b' }] },
      { code: 400, reason: 'BadRequest', message: 'map: map[value:b] does not contain declared merge key: name' },
    ],
    [
      'a $setElementOrder that contradicts the patch list',
      { mergingList: [{ name: 1 }, { name: 3 }, { name: 2 }] },
      { '$setElementOrder/mergingList': [{ name: 1 }, { name: 2 }, { name: 3 }], mergingList: [{ name: 3, value: 3 }, { name: 1, value: 1 }] },
      {
        code: 400, reason: 'BadRequest',
        message: "The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n",
      },
    ],
    ['$setElementOrder not a list', { mergingList: [] }, { '$setElementOrder/mergingList': 'x' }, { code: 400, reason: 'BadRequest', message: 'expected a []interface {}, but received a string' }],
    ['mixed element types', { mergingIntList: [1] }, { mergingIntList: ['a'] }, { code: 400, reason: 'BadRequest', message: 'list element types are not identical: [[1] [a]]' }],
  ])('%s', (_n, original, patch, want) => {
    const status = statusOf(() => applyStrategicMergePatch(original, patch, mergeItem));
    expect(status).toMatchObject(want);
  });
});
