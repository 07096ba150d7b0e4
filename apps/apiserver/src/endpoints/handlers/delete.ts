import { parseDeleteOptions, successStatus, type DeleteOptions } from '@keel/apimachinery';
import type { PropagationRequest } from '../../registry/gc-finalizers.js';
import { writeResourceObject } from '../respond.js';
import { decodeObjectBody, readBody } from './body.js';
import { writeObjectAnswer } from './object-answer.js';
import type { Handler } from './scope.js';
import { returnsDeletedObject } from './returns-deleted.js';
import { requestEffects } from './write-context.js';

/** Reads DeleteOptions from the body when there is one (kubectl sends dryRun there), else the query. */
export async function deleteOptions(scope: Parameters<Handler>[0], r: Parameters<Handler>[1]) {
  const raw = await readBody(r.req, scope.maxRequestBodyBytes);
  const body = raw.length > 0 ? await decodeObjectBody(r.req, raw, 'DeleteOptions') : undefined;
  return parseDeleteOptions(r.url.searchParams, body);
}

/** How the request wants the object's dependents handled (only the fields it set). */
export function propagation(opts: DeleteOptions): PropagationRequest {
  return {
    ...(opts.propagationPolicy !== undefined ? { propagationPolicy: opts.propagationPolicy } : {}),
    ...(opts.orphanDependents !== undefined ? { orphanDependents: opts.orphanDependents } : {}),
  };
}

/**
 * DELETE a named object: 200 with the object itself when finalizers keep it (marked with its
 * deletionTimestamp); when it is gone, 200 with the deleted object for the resources whose
 * reference store sets ReturnDeletedObject (pods, services, namespaces, ...) and a Success Status
 * for the rest, as the real server answers.
 */
export const deleteResource: Handler = async (scope, r) => {
  const opts = await deleteOptions(scope, r);
  const { obj, pending } = await scope.store.delete(r.info.namespace, r.info.name, {
    dryRun: opts.dryRun,
    user: r.user,
    ...requestEffects(r.req, r.res),
    ...(opts.preconditions ? { preconditions: opts.preconditions } : {}),
    ...propagation(opts),
  });
  if (pending) {
    // 202 only for the legacy orphanDependents=false still in progress, as the real handler
    // answers (every other pending delete keeps the 200 existing clients expect).
    writeObjectAnswer(scope, r, opts.orphanDependents === false ? 202 : 200, obj);
    return;
  }
  if (returnsDeletedObject(scope.view.group, scope.view.resource)) {
    writeObjectAnswer(scope, r, 200, obj);
    return;
  }
  const details = {
    name: r.info.name,
    ...(scope.view.group !== '' ? { group: scope.view.group } : {}),
    kind: scope.view.resource,
    uid: obj.metadata.uid ?? '',
  };
  writeResourceObject(r.req, r.res, r.url, 200, successStatus(details));
};
