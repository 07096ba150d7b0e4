import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError } from '@keel/apimachinery';
import { createResource } from './handlers/create.js';
import { deleteCollectionResource } from './handlers/delete-collection.js';
import { deleteResource } from './handlers/delete.js';
import { getResource } from './handlers/get.js';
import { listResource } from './handlers/list.js';
import { patchResource } from './handlers/patch.js';
import { serve, type Handler, type RequestScope } from './handlers/scope.js';
import { updateResource } from './handlers/update.js';
import { listOptions } from './handlers/list-body.js';
import { watchResource } from './handlers/watch.js';
import type { RequestInfo } from './request-info.js';
import { writeError } from './respond.js';

const VERBS: Readonly<Record<string, Handler>> = {
  get: getResource,
  list: listResource,
  watch: (scope, r) => watchResource(scope, r, listOptions(scope.view, r)),
  create: createResource,
  update: updateResource,
  patch: patchResource,
  delete: deleteResource,
  deletecollection: deleteCollectionResource,
};

/** The real server's 404 for an API path that names nothing it serves. */
export const notFoundStatus = () =>
  new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    details: {},
    code: 404,
  });

const methodNotAllowed = () =>
  new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server does not allow this method on the requested resource',
    reason: 'MethodNotAllowed',
    details: {},
    code: 405,
  });

function scopeKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/**
 * Routes resource requests to the one handler for their verb, by what request-info decoded:
 * group, version and resource pick the scope; the verb picks the handler. A path that names no
 * served resource is the real server's 404 Status; a verb the path does not take is 405.
 */
export class ResourceDispatcher {
  private readonly scopes = new Map<string, RequestScope>();

  add(scope: RequestScope): void {
    this.scopes.set(scopeKey(scope.view.group, scope.view.version, scope.view.resource), scope);
  }

  /** Returns false when the request is not for a served resource (another handler may take it). */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, info: RequestInfo): boolean {
    if (!info.isResourceRequest) return false;
    const scope = this.scopes.get(scopeKey(info.apiGroup, info.apiVersion, info.resource));
    if (
      !scope ||
      info.subresource !== '' ||
      (scope.view.namespaced && info.namespace === '' && info.name !== '')
    ) {
      writeError(req, res, notFoundStatus());
      return true;
    }
    const named = info.name !== '';
    const collectionVerbs = ['list', 'watch', 'create', 'deletecollection'];
    const allowed = named
      ? !['list', 'create', 'deletecollection'].includes(info.verb)
      : collectionVerbs.includes(info.verb);
    const clusterWide = scope.view.namespaced && info.namespace === '';
    const handler = VERBS[info.verb];
    if (!handler || !allowed || (clusterWide && !['list', 'watch'].includes(info.verb))) {
      writeError(req, res, handler ? methodNotAllowed() : notFoundStatus());
      return true;
    }
    void serve(scope, { req, res, url, info }, handler);
    return true;
  }
}
