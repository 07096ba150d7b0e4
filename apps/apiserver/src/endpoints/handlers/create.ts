import { badRequest, parseCreateOptions } from '@keel/apimachinery';
import { writeObject } from '../respond.js';
import { decodeObjectBody, readBody } from './body.js';
import { decodeWithValidation, wireObject } from './decode.js';
import type { Handler } from './scope.js';
import { writeContext } from './write-context.js';

/** POST a new object into a namespace (or the cluster, for cluster-scoped resources). */
export const createResource: Handler = async (scope, { req, res, url, info }) => {
  const opts = parseCreateOptions(url.searchParams);
  const body = decodeObjectBody(req, await readBody(req, scope.maxRequestBodyBytes), scope.view.kind);
  const { object } = decodeWithValidation(scope.view, body, opts.fieldValidation, res);
  const bodyNamespace = object.metadata.namespace ?? '';
  if (scope.view.namespaced && bodyNamespace !== '' && bodyNamespace !== info.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const created = await scope.store.create(info.namespace, object, wireObject(body), writeContext(req, opts));
  writeObject(req, res, url, 201, scope.view.encode(created));
};
