import { parseUpdateOptions } from '@keel/apimachinery';
import { writeResourceObject } from '../respond.js';
import { decodeObjectBody, jsonDuplicates, readBody } from './body.js';
import { decodeWithValidation, wireObject } from './decode.js';
import type { Handler } from './scope.js';
import { writeContext } from './write-context.js';

/** PUT (replace) a named object; creates it (201) when the resource allows create-on-update. */
export const updateResource: Handler = async (scope, { req, res, url, info, user }) => {
  const opts = parseUpdateOptions(url.searchParams);
  const raw = await readBody(req, scope.maxRequestBodyBytes);
  const body = await decodeObjectBody(req, raw, scope.view.kind);
  const { object } = decodeWithValidation(scope.view, body, opts.fieldValidation, res, () =>
    jsonDuplicates(req, raw, body),
  );
  const wire = wireObject(body, scope.view, object);
  // Each storage retry needs its own copy: the store fills metadata into what it gets.
  const { obj, created } = await scope.store.update(
    info.namespace,
    info.name,
    () => ({ obj: structuredClone(object), wire }),
    writeContext(req, res, opts, user),
  );
  writeResourceObject(req, res, url, created ? 201 : 200, scope.view.encode(obj));
};
