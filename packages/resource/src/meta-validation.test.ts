import { describe, expect, it } from 'vitest';
import {
  fieldErrorString,
  FieldPath,
  invalidValue,
  nameIsDNSSubdomain,
  type FieldError,
} from '@keel/apimachinery';
import {
  beforeCreate,
  beforeUpdate,
  kubeFinalizerErrors,
  validateCoreMeta,
  validateCoreMetaUpdate,
} from './meta-validation.js';
import type { ObjectMeta } from './object-meta.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);
const notStandard = 'name is neither a standard finalizer name nor is it fully qualified';

describe('core ValidateObjectMeta: finalizers', () => {
  const meta = (finalizers: string[]): ObjectMeta => ({ name: 'a', namespace: 'default', finalizers });

  it.each<[string[], string[]]>([
    [['kubernetes', 'orphan', 'example.com/x'], []],
    [['foregroundDeletion'], []],
    [
      ['example.com/x', 'bogus', 'kubernetes', 'other'],
      [
        `metadata.finalizers[1]: Invalid value: "bogus": ${notStandard}`,
        `metadata.finalizers[3]: Invalid value: "other": ${notStandard}`,
      ],
    ],
  ])('%j on create and update', (finalizers, want) => {
    expect(strings(validateCoreMeta(meta(finalizers), true, nameIsDNSSubdomain))).toEqual(want);
    const old: ObjectMeta = { ...meta([]), uid: 'u', resourceVersion: '1' };
    expect(
      strings(validateCoreMetaUpdate({ ...meta(finalizers), uid: 'u', resourceVersion: '1' }, old)),
    ).toEqual(want);
  });

  it('reports a list such as spec.finalizers at the list path', () => {
    expect(strings(kubeFinalizerErrors(['bogus'], FieldPath.of('spec', 'finalizers')))).toEqual([
      `spec.finalizers: Invalid value: "bogus": ${notStandard}`,
    ]);
  });
});

describe('rest.BeforeCreate / BeforeUpdate', () => {
  const strategyError = [invalidValue('spec.x', 1, 'bad')];

  it.each<[string, ObjectMeta, boolean, string[]]>([
    ['a path-segment name is enough', { name: 'Not_DNS', namespace: 'default' }, true, []],
    [
      'a name with a slash',
      { name: 'a/b', namespace: 'default' },
      true,
      ['metadata.name: Invalid value: "a/b": may not contain \'/\''],
    ],
    ['a namespaced kind needs a namespace', { name: 'a' }, true, ['metadata.namespace: Required value']],
    [
      'a cluster-scoped kind takes none',
      { name: 'a', namespace: 'x' },
      false,
      ['metadata.namespace: Forbidden: not allowed on this type'],
    ],
  ])('create: %s', (_name, meta, namespaced, want) => {
    expect(strings(beforeCreate([], meta, namespaced))).toEqual(want);
  });

  it('create: the strategy errors win and the metadata is not checked', () => {
    expect(beforeCreate(strategyError, { name: 'a/b' }, true)).toBe(strategyError);
  });

  it('update: metadata errors come before the strategy errors', () => {
    const old: ObjectMeta = { name: 'a', namespace: 'default', uid: 'u', resourceVersion: '1' };
    const errs = beforeUpdate({ ...old, name: 'b' }, old, true, strategyError);
    expect(strings(errs)).toEqual([
      'metadata.name: Invalid value: "b": field is immutable',
      'spec.x: Invalid value: 1: bad',
    ]);
  });
});
