/**
 * The metadata rules around a strategy: core validation's ValidateObjectMeta (a name rule plus
 * the "standard finalizer" check) and the generic layer's rest.BeforeCreate / BeforeUpdate
 * (path-segment names, immutable fields), in the order Go runs them.
 *
 * Copied from packages/events/src/validation-meta.ts and generalised (cluster-scoped kinds,
 * any name rule); a candidate for @keel/apimachinery.
 */
import {
  FieldPath,
  invalidValue,
  validateObjectMeta,
  validateObjectMetaUpdate,
  validatePathSegmentName,
  type FieldError,
  type NameValidator,
} from '@keel/apimachinery';
import type { ObjectMeta } from './object-meta.js';

const standardFinalizers = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/**
 * core validateKubeFinalizerName: a finalizer without a `/` must be one of the standard ones.
 * Go reports it at the list's path, without an index.
 */
export function kubeFinalizerErrors(finalizers: readonly string[] | undefined, p: FieldPath): FieldError[] {
  return (finalizers ?? [])
    .filter((f) => !f.includes('/') && !standardFinalizers.has(f))
    .map((f) => invalidValue(p, f, 'name is neither a standard finalizer name nor is it fully qualified'));
}

const finalizersPath = FieldPath.of('metadata', 'finalizers');

/** core ValidateObjectMeta. */
export function validateCoreMeta(meta: ObjectMeta, namespaced: boolean, nameValidator: NameValidator): FieldError[] {
  return [...validateObjectMeta(meta, { namespaced, nameValidator }), ...kubeFinalizerErrors(meta.finalizers, finalizersPath)];
}

/** core ValidateObjectMetaUpdate. */
export function validateCoreMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  return [...validateObjectMetaUpdate(meta, old), ...kubeFinalizerErrors(meta.finalizers, finalizersPath)];
}

/** rest.BeforeCreate: the strategy's errors, else the generic metadata check. */
export function beforeCreate(strategyErrors: FieldError[], meta: ObjectMeta, namespaced: boolean): FieldError[] {
  if (strategyErrors.length > 0) return strategyErrors;
  return validateObjectMeta(meta, { namespaced, nameValidator: validatePathSegmentName });
}

/** rest.BeforeUpdate: the generic metadata checks, then the strategy's. */
export function beforeUpdate(meta: ObjectMeta, old: ObjectMeta, namespaced: boolean, strategyErrors: FieldError[]): FieldError[] {
  return [
    ...validateObjectMeta(meta, { namespaced, nameValidator: validatePathSegmentName }),
    ...validateObjectMetaUpdate(meta, old),
    ...strategyErrors,
  ];
}
