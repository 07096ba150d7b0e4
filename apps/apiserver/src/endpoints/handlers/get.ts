import { writeObjectAnswer } from './object-answer.js';
import type { Handler } from './scope.js';

/** GET a named object, as JSON or as a Table when the client asks for one. */
export const getResource: Handler = async (scope, r) => {
  writeObjectAnswer(scope, r, 200, await scope.store.get(r.info.namespace, r.info.name));
};
