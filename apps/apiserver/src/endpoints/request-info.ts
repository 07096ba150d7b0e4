import { parseFieldSelector } from '@keel/apimachinery';
/** What a request is about, decoded from its path and method the way the real API server does. */
export interface RequestInfo {
  readonly isResourceRequest: boolean;
  readonly path: string;
  /** Resource verbs (get, list, watch, create, update, patch, delete, deletecollection) or the lower-case method. */
  readonly verb: string;
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /**
   * The name came from a list or watch's `metadata.name=` field selector, not the path: upstream
   * authorizes, audits and limits such a request as one on that object (so a role restricted by
   * resourceNames may list/watch it), while it is still served as a collection request.
   */
  readonly nameFromFieldSelector?: true;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const METHOD_VERBS: Readonly<Record<string, string>> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** Go's strconv.ParseBool-ish query booleans: false only for 0/false, anything else (even empty) is true. */
export function queryBool(value: string | null): boolean {
  return value !== null && !/^(0|false)$/i.test(value);
}

/** Decodes a request (kube's RequestInfoFactory): `/api/v1/...` and `/apis/<group>/<version>/...`. */
export function requestInfo(method: string, url: URL): RequestInfo {
  const path = url.pathname;
  const nonResource: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
  };
  let parts = path.split('/').filter((p, i) => i > 0 || p !== '');
  if (parts[0] === '') parts = parts.slice(1);
  if (parts.length > 0 && parts[parts.length - 1] === '') parts = parts.slice(0, -1);
  const prefix = parts[0];
  let rest: string[];
  let apiGroup = '';
  let apiVersion: string;
  if (prefix === 'api' && parts.length >= 3) {
    apiVersion = parts[1] ?? '';
    rest = parts.slice(2);
  } else if (prefix === 'apis' && parts.length >= 4) {
    apiGroup = parts[1] ?? '';
    apiVersion = parts[2] ?? '';
    rest = parts.slice(3);
  } else {
    return nonResource;
  }
  let verb = METHOD_VERBS[method] ?? method.toLowerCase();
  // The deprecated /watch/ prefix.
  if (rest[0] === 'watch') {
    if (verb === 'get') verb = 'watch';
    rest = rest.slice(1);
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1] ?? '';
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2] ?? '')) rest = rest.slice(2);
  }
  const resource = rest[0] ?? '';
  const name = rest[1] ?? '';
  const subresource = rest.length >= 3 ? (rest[2] ?? '') : '';
  // As upstream's RequestInfoFactory: only a GET of a collection becomes a list or a watch; a GET
  // of one object is a get whatever its query says (watching one object is a list watch with a
  // metadata.name field selector, or the deprecated /watch/ path).
  let selectedName = '';
  if (name === '' && verb === 'get') {
    verb = queryBool(url.searchParams.get('watch')) ? 'watch' : 'list';
    selectedName = nameFromFieldSelector(url.searchParams.get('fieldSelector'));
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  return {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix: prefix,
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name: name || selectedName,
    ...(selectedName !== '' ? { nameFromFieldSelector: true as const } : {}),
  };
}

/**
 * The name a `metadata.name=<name>` field selector pins, when it is a valid path segment (a
 * selector that does not parse names nothing: the request is then authorized as a plain list).
 */
function nameFromFieldSelector(text: string | null): string {
  if (!text) return '';
  let name: string | undefined;
  try {
    name = parseFieldSelector(text).requiresExactMatch('metadata.name');
  } catch {
    return '';
  }
  if (name === undefined || name === '' || name === '.' || name === '..' || /[/%]/.test(name)) return '';
  return name;
}
