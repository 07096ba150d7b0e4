/**
 * The request-level checks around a write, with the real server's messages: the handlers'
 * checkName (update, patch), rest.BeforeCreate's namespace rule and rest.BeforeDelete's early
 * precondition check.
 */
import { badRequest, conflict } from '@keel/apimachinery';
import type { InternalObject } from './resource-view.js';

/** Update and patch: the body must name the object of the URL, in the URL's namespace. */
export function checkName(obj: InternalObject, name: string, namespace: string): void {
  const objName = obj.metadata.name ?? '';
  if (objName === '') {
    throw badRequest(
      `the name of the object (${name} based on URL) was undeterminable: name must be provided`,
    );
  }
  if (objName !== name) {
    throw badRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
  }
  const objNamespace = obj.metadata.namespace ?? '';
  if (namespace !== '' && objNamespace !== '' && objNamespace !== namespace) {
    throw badRequest(
      `the namespace of the object (${objNamespace}) does not match the namespace on the request (${namespace})`,
    );
  }
}

/** Create: a body namespace must be the request's (an empty one is filled in from it). */
export function checkCreateNamespace(obj: InternalObject, namespace: string, namespaced: boolean): void {
  const sent = obj.metadata.namespace ?? '';
  if (namespaced && sent !== '' && sent !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

/**
 * Delete preconditions, checked against the current object before storage checks them again.
 * The conflict names the internal kind (as the 422s do), not the resource.
 */
export function checkDeletePreconditions(
  current: InternalObject,
  kind: string,
  pre: { uid?: string; resourceVersion?: string },
): void {
  const name = current.metadata.name ?? '';
  const gr = { group: '', resource: kind };
  const uid = current.metadata.uid ?? '';
  // Go pointers: a JSON null is "no precondition".
  if (typeof pre.uid === 'string' && pre.uid !== uid) {
    throw conflict(
      gr,
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
    );
  }
  const rv = current.metadata.resourceVersion ?? '';
  if (typeof pre.resourceVersion === 'string' && pre.resourceVersion !== rv) {
    throw conflict(
      gr,
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
    );
  }
}
