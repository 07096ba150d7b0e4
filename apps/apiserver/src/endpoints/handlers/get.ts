import { writeObject } from '../respond.js';
import type { Handler } from './scope.js';

/** GET a named object. */
export const getResource: Handler = async (scope, { req, res, url, info }) => {
  const obj = await scope.store.get(info.namespace, info.name);
  writeObject(req, res, url, 200, scope.view.encode(obj));
};
