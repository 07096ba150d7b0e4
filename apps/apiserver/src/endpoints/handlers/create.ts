import { parseCreateOptions } from '@keel/apimachinery';
import { decodeObjectBody, jsonDuplicates, readBody } from './body.js';
import { decodeWithValidation, wireObject } from './decode.js';
import { writeObjectAnswer } from './object-answer.js';
import type { Handler } from './scope.js';
import { writeContext } from './write-context.js';

/** POST a new object into a namespace (or the cluster, for cluster-scoped resources). */
export const createResource: Handler = async (scope, r) => {
  const { req, res, url, info, user } = r;
  const opts = parseCreateOptions(url.searchParams);
  const raw = await readBody(req, scope.maxRequestBodyBytes);
  const body = await decodeObjectBody(req, raw, scope.view.kind);
  const { object } = decodeWithValidation(scope.view, body, opts.fieldValidation, res, () =>
    jsonDuplicates(req, raw, body),
  );
  const created = await scope.store.create(
    info.namespace,
    object,
    wireObject(body, scope.view, object),
    writeContext(req, res, opts, user),
  );
  writeObjectAnswer(scope, r, 201, created);
};
