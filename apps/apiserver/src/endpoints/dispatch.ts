import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError } from '@keel/apimachinery';
import type { UserInfo } from '@keel/auth';
import { groupVersionString, type DiscoveryView } from './discovery/groups.js';
import { createResource } from './handlers/create.js';
import { deleteCollectionResource } from './handlers/delete-collection.js';
import { deleteResource } from './handlers/delete.js';
import { getResource } from './handlers/get.js';
import { listResource } from './handlers/list.js';
import { patchResource } from './handlers/patch.js';
import { serve, type Handler, type HandlerRequest, type RequestScope } from './handlers/scope.js';
import { updateResource } from './handlers/update.js';
import { listOptions } from './handlers/list-body.js';
import type { OpenAPIView } from './openapi/operations.js';
import { watchResource } from './handlers/watch.js';
import type { RequestInfo } from './request-info.js';
import { writeError } from './respond.js';
import type { Restrictions } from './media-options.js';
import { restfulMethodNotAllowed } from './restful-route.js';

const VERBS: Readonly<Record<string, Handler>> = {
  get: getResource,
  list: listResource,
  watch: (scope, r) => watchResource(scope, r, listOptions(scope, r)),
  create: createResource,
  update: updateResource,
  patch: patchResource,
  delete: deleteResource,
  deletecollection: deleteCollectionResource,
};

/** Verbs served on the collection path (`.../pods`) and on the item path (`.../pods/<name>`). */
const COLLECTION_VERBS = new Set(['list', 'watch', 'create', 'deletecollection']);
const ITEM_VERBS = new Set(['get', 'watch', 'update', 'patch', 'delete']);
/** A subresource path (`.../pods/<name>/status`) always names an object. */
const SUBRESOURCE_VERBS = new Set(['get', 'update', 'patch', 'create', 'delete']);

/**
 * What an installed resource tells discovery and OpenAPI (a resource view, with its
 * subresources, or the facts of a resource served without one, such as TokenReview).
 */
export type ServedResource = DiscoveryView & OpenAPIView;

/** A handler already bound to its resource; it writes its own errors. */
export type RouteHandler = (r: HandlerRequest) => Promise<void>;

/**
 * One served path family: a resource (subresource `''`) or one of its subresources, and the
 * handler of each verb it takes. The verbs also decide 404 versus 405, as the real server's
 * router does: a path that takes no verb at all is not there; one that takes others is 405.
 */
export interface Route {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespaced: boolean;
  readonly handlers: Readonly<Partial<Record<string, RouteHandler>>>;
}

/**
 * Whether a resource is served (--runtime-config); `groupVersion` is `v1` for the core group.
 * A disabled resource's subresources go with it.
 */
export type ResourceEnabled = (groupVersion: string, resource: string) => boolean;

/** A route with the verbs each kind of path takes. */
interface ServedRoute extends Route {
  readonly subresourceVerbs: ReadonlySet<string>;
  readonly itemVerbs: ReadonlySet<string>;
  readonly collectionVerbs: ReadonlySet<string>;
  readonly clusterWideVerbs: ReadonlySet<string>;
}

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

function routeKey(group: string, version: string, resource: string, subresource: string): string {
  return `${group}/${version}/${resource}/${subresource}`;
}

/**
 * Binds a generic verb handler to one resource scope (errors become Status responses);
 * `restrictions` say what its answers can be converted to (NO_TABLES: no Table printer).
 */
export function scoped(scope: RequestScope, handler: Handler, restrictions?: Restrictions): RouteHandler {
  return (r) => serve(scope, r, handler, restrictions);
}

/** The generic handlers of the verbs a view lists. */
export function viewHandlers(scope: RequestScope): Record<string, RouteHandler> {
  const out: Record<string, RouteHandler> = {};
  for (const verb of scope.view.verbs) {
    const handler = VERBS[verb];
    if (handler) out[verb] = scoped(scope, handler);
  }
  return out;
}

/**
 * Routes resource requests by what request-info decoded: group, version, resource and
 * subresource pick the route; the verb picks its handler. A path that names no served resource
 * is the real server's 404 Status; a verb the path does not take is 405.
 *
 * Resources `isEnabled` turns off are never registered, so they answer that same 404, as in the
 * real server, where a disabled resource's storage is never installed.
 */
export class ResourceDispatcher {
  private readonly routes = new Map<string, ServedRoute>();
  private readonly served: RequestScope['store'][] = [];

  constructor(private readonly isEnabled: ResourceEnabled) {}

  private enabled(r: { group: string; version: string; resource: string }): boolean {
    return this.isEnabled(groupVersionString(r.group, r.version), r.resource);
  }

  /** The store of every resource served through `add` (the namespace controller empties them). */
  stores(): readonly RequestScope['store'][] {
    return this.served;
  }

  /** Serves a view's resource through the generic handlers of the verbs it lists. */
  add(scope: RequestScope): void {
    const v = scope.view;
    // A disabled resource's objects are left alone: the namespace controller does not empty them.
    if (!this.enabled(v)) return;
    this.served.push(scope.store);
    this.addRoute({
      group: v.group,
      version: v.version,
      resource: v.resource,
      subresource: '',
      namespaced: v.namespaced,
      handlers: viewHandlers(scope),
    });
  }

  /**
   * Serves `<resource>/<subresource>` through the scope's view (e.g. the status view), with the
   * view's generic handlers unless `handlers` gives the route's own.
   */
  addSubresource(
    subresource: string,
    scope: RequestScope,
    handlers: Readonly<Partial<Record<string, RouteHandler>>> = viewHandlers(scope),
  ): void {
    const v = scope.view;
    this.addRoute({
      group: v.group,
      version: v.version,
      resource: v.resource,
      subresource,
      namespaced: v.namespaced,
      handlers,
    });
  }

  /** Registers nothing for a disabled resource (nor for its subresources). */
  addRoute(route: Route): void {
    if (!this.enabled(route)) return;
    const key = routeKey(route.group, route.version, route.resource, route.subresource);
    if (this.routes.has(key)) throw new Error(`dispatcher: ${key} served twice`);
    // The verbs each kind of path takes, worked out once instead of on every request.
    const verbs = Object.keys(route.handlers);
    const on = (path: ReadonlySet<string>) => new Set(verbs.filter((v) => path.has(v)));
    this.routes.set(key, {
      ...route,
      subresourceVerbs: on(SUBRESOURCE_VERBS),
      itemVerbs: on(ITEM_VERBS),
      collectionVerbs: on(COLLECTION_VERBS),
      // Across namespaces a namespaced resource only lists and watches.
      clusterWideVerbs: new Set(
        verbs.filter((v) => COLLECTION_VERBS.has(v) && (v === 'list' || v === 'watch')),
      ),
    });
  }

  /** Returns false when the request is not for a served resource (another handler may take it). */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, info: RequestInfo, user: UserInfo): boolean {
    if (!info.isResourceRequest) return false;
    const route = this.routes.get(routeKey(info.apiGroup, info.apiVersion, info.resource, info.subresource));
    const fail = (err: StatusError): true => {
      writeError(req, res, err);
      return true;
    };
    if (!route) return fail(notFoundStatus());
    // For namespaces themselves request-info reads the name as the namespace.
    const nsInPath = info.namespace !== '' && !(info.apiGroup === '' && info.resource === 'namespaces');
    // A list or watch of one object by field selector is still a collection request.
    const named = info.name !== '' && info.nameFromFieldSelector !== true;
    if (route.namespaced ? !nsInPath && named : nsInPath) return fail(notFoundStatus());
    if (route.subresource !== '' && !named) return fail(notFoundStatus());
    const handler = route.handlers[info.verb];
    if (!VERBS[info.verb]) return fail(notFoundStatus());
    const served =
      route.subresource !== ''
        ? route.subresourceVerbs
        : named
          ? route.itemVerbs
          : route.namespaced && !nsInPath
            ? route.clusterWideVerbs
            : route.collectionVerbs;
    if (served.size === 0) return fail(notFoundStatus());
    // go-restful routes by method before anything else: no resource route takes HEAD.
    if (req.method === 'HEAD') return fail(restfulMethodNotAllowed());
    if (!handler || !served.has(info.verb)) return fail(restfulMethodNotAllowed());
    // Handlers answer their own failures; this only keeps a slip from being an unhandled rejection.
    handler({ req, res, url, info, user }).catch((err: unknown) => writeError(req, res, err));
    return true;
  }
}
