/**
 * The REST operations of a resource as the real installer publishes them: paths, operation
 * ids (`patchEventsV1NamespacedEvent`), x-kubernetes-action and x-kubernetes-group-version-kind,
 * in a neutral form the v2 and v3 documents both render.
 */
import {
  deleteCollectionParams,
  deleteParams,
  listParams,
  patchParams,
  writeParams,
  type ParamName,
} from './parameters.js';
import { meta } from './schema-meta.js';

/** What the OpenAPI documents need from a resource view. */
export interface OpenAPIView {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Operation {
  readonly method: Method;
  readonly operationId: string;
  readonly description: string;
  /** Absent on the discovery operation, which belongs to no kind. */
  readonly action?: string;
  readonly params: readonly ParamName[];
  readonly consumes?: readonly string[];
  readonly body?: { readonly def: string; readonly required: boolean };
  /** Status code → response definition. */
  readonly responses: Readonly<Record<string, string>>;
  readonly watch?: boolean;
}

export interface PathItem {
  readonly path: string;
  readonly params: readonly ParamName[];
  readonly ops: readonly Operation[];
}

export const patchContentTypes = [
  'application/apply-patch+yaml',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
] as const;

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** `CoreV1`, `EventsV1`, `RbacAuthorizationV1`: the operation id and tag prefix of a group version. */
export function groupVersionPrefix(group: string, version: string): string {
  const name = group === '' ? 'core' : group.replace(/\.k8s\.io$/, '');
  return name.split('.').map(capitalize).join('') + capitalize(version);
}

export function tagOf(group: string, version: string): string {
  const p = groupVersionPrefix(group, version);
  const v = capitalize(version);
  return `${p.charAt(0).toLowerCase()}${p.slice(1, -v.length)}_${version}`;
}

/** `io.k8s.api.events.v1.Event`: upstream names a built-in kind by its Go package. */
export function definitionName(group: string, version: string, kind: string): string {
  const pkg = group === '' ? 'core' : (group.split('.')[0] ?? group);
  return `io.k8s.api.${pkg}.${version}.${kind}`;
}

export function rootPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** The `GET /apis/<g>/<v>/` discovery operation every group-version document starts with. */
export function discoveryPath(group: string, version: string): PathItem {
  return {
    path: `${rootPath(group, version)}/`,
    params: [],
    ops: [
      {
        method: 'get',
        operationId: `get${groupVersionPrefix(group, version)}APIResources`,
        description: 'get available resources',
        params: [],
        responses: { '200': `${meta}.APIResourceList` },
      },
    ],
  };
}

export function resourcePaths(v: OpenAPIView): PathItem[] {
  const has = (verb: string): boolean => v.verbs.includes(verb);
  const prefix = groupVersionPrefix(v.group, v.version);
  const root = rootPath(v.group, v.version);
  const obj = definitionName(v.group, v.version, v.kind);
  const listDef = definitionName(v.group, v.version, v.listKind);
  const status = `${meta}.Status`;
  const scope = v.namespaced ? 'Namespaced' : '';
  const k = `${scope}${v.kind}`;
  const ns = v.namespaced ? '/namespaces/{namespace}' : '';
  const nsParam: ParamName[] = v.namespaced ? ['namespace'] : [];
  const collection: Operation[] = [];
  const item: Operation[] = [];
  const paths: PathItem[] = [];

  if (has('list')) {
    collection.push({
      method: 'get',
      operationId: `list${prefix}${k}`,
      description: `list or watch objects of kind ${v.kind}`,
      action: 'list',
      params: listParams,
      responses: { '200': listDef },
    });
  }
  if (has('create')) {
    collection.push({
      method: 'post',
      operationId: `create${prefix}${k}`,
      description: `create ${article(v.kind)} ${v.kind}`,
      action: 'post',
      params: writeParams,
      body: { def: obj, required: true },
      responses: { '200': obj, '201': obj, '202': obj },
    });
  }
  if (has('deletecollection')) {
    collection.push({
      method: 'delete',
      operationId: `delete${prefix}Collection${k}`,
      description: `delete collection of ${v.kind}`,
      action: 'deletecollection',
      params: deleteCollectionParams,
      body: { def: `${meta}.DeleteOptions`, required: false },
      responses: { '200': status },
    });
  }
  if (has('get')) {
    item.push({
      method: 'get',
      operationId: `read${prefix}${k}`,
      description: `read the specified ${v.kind}`,
      action: 'get',
      params: [],
      responses: { '200': obj },
    });
  }
  if (has('update')) {
    item.push({
      method: 'put',
      operationId: `replace${prefix}${k}`,
      description: `replace the specified ${v.kind}`,
      action: 'put',
      params: writeParams,
      body: { def: obj, required: true },
      responses: { '200': obj, '201': obj },
    });
  }
  if (has('patch')) {
    item.push({
      method: 'patch',
      operationId: `patch${prefix}${k}`,
      description: `partially update the specified ${v.kind}`,
      action: 'patch',
      params: patchParams,
      consumes: patchContentTypes,
      body: { def: `${meta}.Patch`, required: true },
      responses: { '200': obj, '201': obj },
    });
  }
  if (has('delete')) {
    item.push({
      method: 'delete',
      operationId: `delete${prefix}${k}`,
      description: `delete ${article(v.kind)} ${v.kind}`,
      action: 'delete',
      params: deleteParams,
      body: { def: `${meta}.DeleteOptions`, required: false },
      responses: { '200': status, '202': status },
    });
  }
  if (collection.length)
    paths.push({ path: `${root}${ns}/${v.resource}`, params: [...nsParam, 'pretty'], ops: collection });
  if (item.length)
    paths.push({
      path: `${root}${ns}/${v.resource}/{name}`,
      params: ['name', ...nsParam, 'pretty'],
      ops: item,
    });

  const watchEvent = `${meta}.WatchEvent`;
  const watchList = (operationId: string, path: string, params: ParamName[]): PathItem => ({
    path,
    params: [...params, 'pretty'].concat(listParams).sort() as ParamName[],
    ops: [
      {
        method: 'get',
        operationId,
        description: `watch individual changes to a list of ${v.kind}. deprecated: use the 'watch' parameter with a list operation instead.`,
        action: 'watchlist',
        params: [],
        responses: { '200': watchEvent },
        watch: true,
      },
    ],
  });
  if (has('list') && v.namespaced) {
    paths.push({
      path: `${root}/${v.resource}`,
      params: ['pretty', ...listParams].sort() as ParamName[],
      ops: [
        {
          method: 'get',
          operationId: `list${prefix}${v.kind}ForAllNamespaces`,
          description: `list or watch objects of kind ${v.kind}`,
          action: 'list',
          params: [],
          responses: { '200': listDef },
        },
      ],
    });
  }
  if (has('watch')) {
    paths.push(watchList(`watch${prefix}${k}List`, `${root}/watch${ns}/${v.resource}`, nsParam));
    paths.push({
      path: `${root}/watch${ns}/${v.resource}/{name}`,
      params: ['name', ...nsParam, 'pretty', ...listParams].sort() as ParamName[],
      ops: [
        {
          method: 'get',
          operationId: `watch${prefix}${k}`,
          description: `watch changes to an object of kind ${v.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
          action: 'watch',
          params: [],
          responses: { '200': watchEvent },
          watch: true,
        },
      ],
    });
    if (v.namespaced)
      paths.push(watchList(`watch${prefix}${v.kind}ListForAllNamespaces`, `${root}/watch/${v.resource}`, []));
  }
  return paths;
}

function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? 'an' : 'a';
}
