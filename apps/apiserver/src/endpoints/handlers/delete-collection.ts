import { deleteCollection } from '../../registry/delete-collection.js';
import { deleteOptions, propagation } from './delete.js';
import { listOptions, listQuery } from './list-body.js';
import { writeListAnswer } from './object-answer.js';
import type { Handler } from './scope.js';
import { requestEffects } from './write-context.js';

/** DELETE a collection: every selected object, --delete-collection-workers at a time; 200 with the deleted list. */
export const deleteCollectionResource: Handler = async (scope, r) => {
  const list = listOptions(scope, r);
  const opts = await deleteOptions(scope, r);
  const result = await deleteCollection(scope.store, r.info.namespace, listQuery(list), {
    dryRun: opts.dryRun,
    user: r.user,
    effects: requestEffects(r.req, r.res),
    propagation: propagation(opts),
    workers: scope.deleteCollectionWorkers,
  });
  writeListAnswer(scope, r, result);
};
