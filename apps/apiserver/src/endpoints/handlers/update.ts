import { parseUpdateOptions } from '@keel/apimachinery';
import { decodeObjectBody, jsonDuplicates, readBody } from './body.js';
import { decodeWithValidation, wireObject } from './decode.js';
import { writeObjectAnswer } from './object-answer.js';
import type { Handler } from './scope.js';
import { writeContext } from './write-context.js';

/** PUT (replace) a named object; creates it (201) when the resource allows create-on-update. */
export const updateResource: Handler = async (scope, r) => {
  const { req, res, url, info, user } = r;
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
  writeObjectAnswer(scope, r, created ? 201 : 200, obj);
};
