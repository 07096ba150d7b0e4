import { apiVersionOf } from '../../registry/resource-view.js';
import { protobufFor, wantsPretty, writeObject } from '../respond.js';
import { tableForList } from '../table.js';
import { listBody, listOptions, listQuery } from './list-body.js';
import { writeList } from './list-stream.js';
import type { Handler } from './scope.js';
import { tableOptions } from './table-output.js';
import { watchResource } from './watch.js';

/** GET a collection (one namespace, or all with the cluster-wide path); `watch=true` streams instead. */
export const listResource: Handler = async (scope, r) => {
  const opts = listOptions(scope, r);
  if (opts.watch) return watchResource(scope, r, opts);
  const table = tableOptions(r);
  const query = listQuery(opts);
  // Plain JSON, the common case (informers, controllers): items from the encoded cache.
  const listType = { apiVersion: apiVersionOf(scope.view), kind: scope.view.listKind };
  if (!table && !wantsPretty(r.req, r.url) && !protobufFor(r.req, listType)) {
    await writeList(r.res, scope.view, await scope.store.listJson(r.info.namespace, query));
    return;
  }
  const result = await scope.store.list(r.info.namespace, query);
  if (table) {
    const meta = {
      resourceVersion: result.resourceVersion,
      ...(result.continueKey !== undefined ? { continue: result.continueKey } : {}),
      ...(result.remainingItemCount !== undefined ? { remainingItemCount: result.remainingItemCount } : {}),
    };
    writeObject(r.req, r.res, r.url, 200, tableForList(scope.view, result.items, meta, table));
    return;
  }
  // JSON (pretty) or protobuf, as the client's Accept picks.
  writeObject(r.req, r.res, r.url, 200, listBody(scope.view, result));
};
