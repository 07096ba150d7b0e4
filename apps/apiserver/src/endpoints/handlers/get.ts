import { writeResourceObject } from '../respond.js';
import { tableForObject } from '../table.js';
import type { Handler } from './scope.js';
import { tableOptions } from './table-output.js';

/** GET a named object, as JSON or as a Table when the client asks for one. */
export const getResource: Handler = async (scope, r) => {
  const table = tableOptions(r);
  const obj = await scope.store.get(r.info.namespace, r.info.name);
  writeResourceObject(
    r.req,
    r.res,
    r.url,
    200,
    table ? tableForObject(scope.view, obj, table) : scope.view.encode(obj),
  );
};
