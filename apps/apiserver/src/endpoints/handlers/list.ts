import { PROTOBUF } from '@keel/protobuf';
import { apiVersionOf } from '../../registry/resource-view.js';
import { RESOURCE } from '../media-options.js';
import { resourceMedia } from '../negotiate.js';
import { partialTarget } from '../partial-metadata.js';
import {
  protobufFor,
  wantsPretty,
  wantsYaml,
  writeBody,
  writeObject,
  writeResourceObject,
} from '../respond.js';
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
  const partial = partialTarget(resourceMedia(r.req));
  if (partial) {
    // The metadata client: the list in full from the store, then only its metadata (or the
    // reference's 406 for PartialObjectMetadata, asked of a list, once the list is read).
    const list = listBody(scope.view, await scope.store.list(r.info.namespace, query));
    writeResourceObject(r.req, r.res, r.url, 200, list);
    return;
  }
  const apiVersion = apiVersionOf(scope.view);
  const pb = table ? undefined : protobufFor(r.req, { apiVersion, kind: scope.view.listKind }, RESOURCE);
  if (pb) {
    // Protobuf: the items' messages come from the encoded cache too.
    const encodeItem = (member: Record<string, unknown>) =>
      pb.encodeItem(apiVersion, scope.view.kind, member);
    const result = await scope.store.listProto(r.info.namespace, query, encodeItem);
    const head = listBody(scope.view, { ...result, items: [] });
    writeBody(r.res, 200, pb.encodeList(head, result.items), PROTOBUF);
    return;
  }
  // Plain JSON, the common case (informers, controllers): items from the encoded cache.
  if (!table && !wantsPretty(r.req, r.url) && !wantsYaml(r.req)) {
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
  writeObject(r.req, r.res, r.url, 200, listBody(scope.view, result));
};
