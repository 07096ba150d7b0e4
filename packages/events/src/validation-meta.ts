/**
 * The metadata rules around the Event strategy: the generic layer's (rest.BeforeCreate /
 * BeforeUpdate, path-segment names) and core validation's (DNS-1123 subdomain names plus the
 * "standard finalizer" check), which the strict events.k8s.io/v1 rules use.
 */
import {
  FieldPath,
  invalidValue,
  nameIsDNSSubdomain,
  validateObjectMeta,
  validateObjectMetaUpdate,
  validatePathSegmentName,
  type FieldError,
} from '@keel/apimachinery';
import type { ObjectMeta } from './types.js';

const finalizersPath = FieldPath.of('metadata', 'finalizers');
const standardFinalizers = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** core validateKubeFinalizerName: a finalizer without a `/` must be one of the standard ones. */
function kubeFinalizerErrors(finalizers: readonly string[] | undefined): FieldError[] {
  const errs: FieldError[] = [];
  (finalizers ?? []).forEach((f, i) => {
    if (!f.includes('/') && !standardFinalizers.has(f)) {
      errs.push(
        invalidValue(
          finalizersPath.index(i),
          f,
          'name is neither a standard finalizer name nor is it fully qualified',
        ),
      );
    }
  });
  return errs;
}

/** What every namespaced resource gets from the generic layer: names need only be path segments. */
export function validateGenericMeta(meta: ObjectMeta): FieldError[] {
  return validateObjectMeta(meta, { namespaced: true, nameValidator: validatePathSegmentName });
}

export function validateGenericMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  return validateObjectMetaUpdate(meta, old);
}

/** core ValidateObjectMeta with DNS-1123 subdomain names. */
export function validateCoreMeta(meta: ObjectMeta): FieldError[] {
  return [
    ...validateObjectMeta(meta, { namespaced: true, nameValidator: nameIsDNSSubdomain }),
    ...kubeFinalizerErrors(meta.finalizers),
  ];
}

/** core ValidateObjectMetaUpdate. */
export function validateCoreMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  return [...validateObjectMetaUpdate(meta, old), ...kubeFinalizerErrors(meta.finalizers)];
}
