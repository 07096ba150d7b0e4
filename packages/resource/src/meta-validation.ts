/**
 * The metadata rules around a strategy: core validation's ValidateObjectMeta (a name rule plus
 * the "standard finalizer" check) and the generic layer's rest.BeforeCreate / BeforeUpdate
 * (path-segment names, immutable fields), in the order Go runs them.
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
const finalizerMessage = 'name is neither a standard finalizer name nor is it fully qualified';

const isKubeFinalizer = (f: string): boolean => f.includes('/') || standardFinalizers.has(f);

/**
 * core validateKubeFinalizerName over a list reported at the list's path, without an index, as
 * Go does for a Namespace's spec.finalizers.
 */
export function kubeFinalizerErrors(finalizers: readonly string[] | undefined, p: FieldPath): FieldError[] {
  return (finalizers ?? [])
    .filter((f) => !isKubeFinalizer(f))
    .map((f) => invalidValue(p, f, finalizerMessage));
}

const finalizersPath = FieldPath.of('metadata', 'finalizers');

/** metadata.finalizers, which Go checks element by element (`metadata.finalizers[1]`). */
function metaFinalizerErrors(finalizers: readonly string[] | undefined): FieldError[] {
  const errs: FieldError[] = [];
  (finalizers ?? []).forEach((f, i) => {
    if (!isKubeFinalizer(f)) errs.push(invalidValue(finalizersPath.index(i), f, finalizerMessage));
  });
  return errs;
}

/** core ValidateObjectMeta. */
export function validateCoreMeta(
  meta: ObjectMeta,
  namespaced: boolean,
  nameValidator: NameValidator,
): FieldError[] {
  return [
    ...validateObjectMeta(meta, { namespaced, nameValidator }),
    ...metaFinalizerErrors(meta.finalizers),
  ];
}

/** core ValidateObjectMetaUpdate. */
export function validateCoreMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  return [...validateObjectMetaUpdate(meta, old), ...metaFinalizerErrors(meta.finalizers)];
}

/** rest.BeforeCreate: the strategy's errors, else the generic metadata check. */
export function beforeCreate(
  strategyErrors: FieldError[],
  meta: ObjectMeta,
  namespaced: boolean,
): FieldError[] {
  if (strategyErrors.length > 0) return strategyErrors;
  return validateObjectMeta(meta, { namespaced, nameValidator: validatePathSegmentName });
}

/** rest.BeforeUpdate: the generic metadata checks, then the strategy's. */
export function beforeUpdate(
  meta: ObjectMeta,
  old: ObjectMeta,
  namespaced: boolean,
  strategyErrors: FieldError[],
): FieldError[] {
  return [
    ...validateObjectMeta(meta, { namespaced, nameValidator: validatePathSegmentName }),
    ...validateObjectMetaUpdate(meta, old),
    ...strategyErrors,
  ];
}
