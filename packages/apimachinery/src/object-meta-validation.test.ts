import { describe, expect, it } from 'vitest';
import { invalid } from './errors.js';
import { fieldErrorString } from './field-errors.js';
import { path } from './field-path.js';
import { validateObjectMeta, validateObjectMetaUpdate, validateNoDuplicates, type ObjectMetaInput } from './object-meta-validation.js';
import { validatePathSegmentName } from './validation.js';

const render = (errs: ReturnType<typeof validateObjectMeta>): string[] => errs.map(fieldErrorString);

const subdomainTail =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('validateObjectMeta (create)', () => {
  it.each<[string, ObjectMetaInput, boolean, string[]]>([
    ['valid namespaced', { name: 'a', namespace: 'default', labels: { app: 'x' } }, true, []],
    ['missing name', { namespace: 'default' }, true, ['metadata.name: Required value: name or generateName is required']],
    ['bad name', { name: 'Bad', namespace: 'default' }, true, [`metadata.name: Invalid value: "Bad": ${subdomainTail}`]],
    ['bad generateName', { name: 'x', generateName: 'Web-', namespace: 'd' }, true, [`metadata.generateName: Invalid value: "Web-": ${subdomainTail}`]],
    ['missing namespace', { name: 'a' }, true, ['metadata.namespace: Required value']],
    ['namespace on a cluster-scoped kind', { name: 'a', namespace: 'x' }, false, ['metadata.namespace: Forbidden: not allowed on this type']],
    [
      'namespace not a label',
      { name: 'a', namespace: 'a.b' },
      true,
      ['metadata.namespace: Invalid value: "a.b": must not contain dots'],
    ],
    ['negative generation', { name: 'a', generation: -1 }, false, ['metadata.generation: Invalid value: -1: must be greater than or equal to 0']],
    [
      'labels, keys sorted',
      { name: 'a', labels: { 'z/-x': 'ok', app: '-v' } },
      false,
      [
        'metadata.labels: Invalid value: "-v": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
        'metadata.labels: Invalid value: "z/-x": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      ],
    ],
    ['annotation keys ignore case', { name: 'a', annotations: { 'Example.COM/Key': 'v' } }, false, []],
    ['annotations too large', { name: 'a', annotations: { k: 'x'.repeat(256 * 1024) } }, false, ['metadata.annotations: Too long: may not be more than 262144 bytes']],
    [
      'owner references',
      { name: 'a', ownerReferences: [{ apiVersion: 'apps/', kind: '', name: 'o', uid: '' }, { apiVersion: 'a/b/c', kind: 'K', name: 'n', uid: 'u' }] },
      false,
      [
        'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
        'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
        'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
        'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
      ],
    ],
    [
      'two controllers',
      {
        name: 'a',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: '1', controller: true },
          { apiVersion: 'v1', kind: 'Node', name: 'n', uid: '2', controller: true },
        ],
      },
      false,
      [
        'metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"Pod","name":"p","uid":"1","controller":true},{"apiVersion":"v1","kind":"Node","name":"n","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for Pod/p and Node/n',
      ],
    ],
    [
      'finalizers',
      { name: 'a', finalizers: ['orphan', 'foregroundDeletion', '-bad'] },
      false,
      [
        'metadata.finalizers: Invalid value: "-bad": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
        'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion","-bad"]: finalizer orphan and foregroundDeletion cannot be both set',
      ],
    ],
    [
      'managed fields',
      { name: 'a', managedFields: [{ manager: 'm', operation: 'Patch', fieldsType: 'FieldsV2' }] },
      false,
      ['metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`', 'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`'],
    ],
  ])('%s', (_n, meta, namespaced, want) => {
    expect(render(validateObjectMeta(meta, { namespaced }))).toEqual(want);
  });

  it('uses the path-segment rule when asked (core/v1 events)', () => {
    expect(render(validateObjectMeta({ name: 'a/b', namespace: 'd' }, { namespaced: true, nameValidator: validatePathSegmentName }))).toEqual([
      `metadata.name: Invalid value: "a/b": may not contain '/'`,
    ]);
  });

  it('builds the 422 with the events.k8s.io kind', () => {
    const err = invalid({ group: '', kind: 'Event' }, '', validateObjectMeta({ namespace: 'default' }, { namespaced: true }));
    expect(err.message).toBe('Event "" is invalid: metadata.name: Required value: name or generateName is required');
  });
});

describe('validateObjectMetaUpdate', () => {
  const old: ObjectMetaInput = {
    name: 'a',
    namespace: 'default',
    uid: 'u1',
    resourceVersion: '5',
    creationTimestamp: '2024-05-01T10:00:00Z',
  };

  it.each<[string, ObjectMetaInput, string[]]>([
    ['unchanged', { ...old }, []],
    ['same instant written differently', { ...old, creationTimestamp: '2024-05-01T12:00:00+02:00' }, []],
    ['labels may change', { ...old, labels: { x: 'y' } }, []],
    ['name', { ...old, name: 'b' }, ['metadata.name: Invalid value: "b": field is immutable']],
    ['namespace', { ...old, namespace: 'x' }, ['metadata.namespace: Invalid value: "x": field is immutable']],
    ['uid', { ...old, uid: 'u2' }, ['metadata.uid: Invalid value: "u2": field is immutable']],
    [
      'creationTimestamp',
      { ...old, creationTimestamp: '2024-05-02T00:00:00.5Z' },
      ['metadata.creationTimestamp: Invalid value: "2024-05-02T00:00:00Z": field is immutable'],
    ],
    ['creationTimestamp removed', { ...old, creationTimestamp: null }, ['metadata.creationTimestamp: Invalid value: null: field is immutable']],
    ['resourceVersion missing', { ...old, resourceVersion: '' }, ['metadata.resourceVersion: Invalid value: "": must be specified for an update']],
    ['generation decremented', { ...old, generation: 1 }, []],
    ['deletionGracePeriodSeconds', { ...old, deletionGracePeriodSeconds: 30 }, ['metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable']],
  ])('%s', (_n, next, want) => {
    expect(render(validateObjectMetaUpdate(next, old))).toEqual(want);
  });

  it('refuses a lower generation', () => {
    expect(render(validateObjectMetaUpdate({ ...old, generation: 1 }, { ...old, generation: 2 }))).toEqual([
      'metadata.generation: Invalid value: 1: must not be decremented',
    ]);
  });

  it('refuses new finalizers while deleting', () => {
    const deleting = { ...old, deletionTimestamp: '2024-05-03T00:00:00Z', finalizers: ['a'] };
    expect(render(validateObjectMetaUpdate({ ...deleting, finalizers: ['a', 'z', 'b'] }, deleting))).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b", "z"}',
    ]);
  });
});

describe('validateNoDuplicates', () => {
  it('reports each repeat at its index', () => {
    expect(validateNoDuplicates(['a', 'b', 'a'], path('spec', 'x')).map(fieldErrorString)).toEqual(['spec.x[2]: Duplicate value: "a"']);
  });
});
