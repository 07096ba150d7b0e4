import { successStatus } from '@keel/apimachinery';
import {
  bindingValidationError,
  checkBindingName,
  decodeBinding,
  validateBinding,
  type Binding,
} from '@keel/coreapi';
import { writeResourceObject } from '../respond.js';
import { namespaceForCreate, readCreateOnlyBody } from './create-only.js';
import type { Handler } from './scope.js';

/** Assigns the Binding's pod to its node atomically; throws the API error that refuses it. */
export type BindPod = (namespace: string, binding: Binding, dryRun: boolean) => Promise<void>;

/**
 * POST a Binding (pod storage's BindingREST): `pods/<name>/binding`, whose URL names the pod,
 * or the legacy `bindings` collection, where the Binding's name does. The answer is the real
 * server's bare Success Status with code 201.
 */
export function bindingHandler(bind: BindPod, where: 'subresource' | 'legacy'): Handler {
  return async (scope, r) => {
    const { object: binding, options } = await readCreateOnlyBody(
      r,
      scope.maxRequestBodyBytes,
      'Binding',
      decodeBinding,
    );
    binding.metadata.namespace = namespaceForCreate(binding.metadata.namespace, r.info.namespace);
    if (where === 'subresource') checkBindingName(r.info.name, binding);
    const errs = validateBinding(binding);
    if (errs.length > 0) throw bindingValidationError(errs);
    await bind(r.info.namespace, binding, options.dryRun);
    writeResourceObject(r.req, r.res, r.url, 201, successStatus(undefined, 201));
  };
}
