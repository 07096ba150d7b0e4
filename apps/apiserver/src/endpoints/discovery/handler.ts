import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notAcceptable, versionInfo, type VersionInfo } from '@keel/apimachinery';
import type { RequestHandler } from 'express';
import { SERVED_MEDIA_TYPES } from '../negotiate.js';
import {
  RESOURCE_PRODUCES,
  restfulAccepts,
  restfulMethodNotAllowed,
  restfulNotAcceptable,
} from '../restful-route.js';
import { serialize, wantsPretty, writeError, writeObject } from '../respond.js';
import {
  apiGroupDiscoveryList,
  apiGroupDocument,
  apiGroupList,
  apiResourceList,
  apiVersions,
  type ServerAddress,
} from './documents.js';
import type { DiscoveryGroup } from './groups.js';
import { asTransform, isPlainJson, isPlainProtobuf, parseAccept, type MediaRange } from './media-type.js';
import { requestURL } from '../../filters/request-target.js';

/** The response Content-Type client-go checks (in any parameter order) to read aggregated discovery. */
export const aggregatedContentType = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

export interface DiscoveryOptions {
  /**
   * `host:port` clients should use, for /api's serverAddressByClientCIDRs (the advertise
   * address and secure port). Default: the address the request arrived on.
   */
  readonly serverAddress?: string;
  /** The /version body. Default: the build's (versionInfo()). */
  readonly version?: VersionInfo;
}

type Format = 'legacy' | 'aggregated';

/** routes.Version's one route: `Produces(restful.MIME_JSON)`. */
const VERSION_PRODUCES = ['application/json'];

function isVersionPath(path: string): boolean {
  return path === '/version' || path === '/version/';
}

/**
 * The first Accept clause the endpoint can serve decides: plain JSON, YAML (answered in JSON) or
 * protobuf gives the legacy document (writeObject then picks its encoding, protobuf being the
 * meta/v1 message, as upstream serves it), the apidiscovery.k8s.io/v2 APIGroupDiscoveryList
 * clause the aggregated one (where offered). Undefined means nothing acceptable (406).
 */
export function negotiateDiscovery(accept: string | undefined, aggregated: boolean): Format | undefined {
  for (const c of parseAccept(accept)) {
    if (aggregated && asTransform(c, 'apidiscovery.k8s.io', 'APIGroupDiscoveryList', ['v2']))
      return 'aggregated';
    if (isPlainJson(c) || isPlainProtobuf(c) || isPlainYaml(c)) return 'legacy';
  }
  return undefined;
}

function isPlainYaml(c: MediaRange): boolean {
  return c.type === 'application' && c.subtype === 'yaml' && c.params['as'] === undefined;
}

function localAddress(req: IncomingMessage): string {
  const host = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const port = req.socket.localPort ?? 443;
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

function etagOf(body: unknown): string {
  return `"${createHash('sha512').update(JSON.stringify(body)).digest('hex').toUpperCase()}"`;
}

/**
 * Serves /version and discovery (api-semantics §10.1–10.3) for a fixed set of groups. The
 * documents are built once; only /api's server address depends on the request.
 */
export class DiscoveryService {
  private readonly core: DiscoveryGroup | undefined;
  private readonly named: readonly DiscoveryGroup[];
  private readonly aggregatedApis: { body: unknown; etag: string };
  private readonly aggregatedApi: { body: unknown; etag: string };

  constructor(
    groups: readonly DiscoveryGroup[],
    private readonly options: DiscoveryOptions = {},
  ) {
    this.core = groups.find((g) => g.group === '');
    this.named = groups.filter((g) => g.group !== '');
    const apis = apiGroupDiscoveryList(this.named);
    const api = apiGroupDiscoveryList(this.core ? [this.core] : []);
    this.aggregatedApis = { body: apis, etag: etagOf(apis) };
    this.aggregatedApi = { body: api, etag: etagOf(api) };
  }

  /** Returns false when the path is not a discovery path this server knows (the next handler decides). */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = url.pathname;
    if (isVersionPath(path)) {
      // go-restful's route: GET only, Produces(application/json); its 405 and 406 come first.
      if (req.method !== 'GET') writeError(req, res, restfulMethodNotAllowed());
      else if (!restfulAccepts(req.headers.accept, VERSION_PRODUCES))
        writeError(req, res, restfulNotAcceptable());
      else this.writeVersion(res);
      return true;
    }
    const parts = path.split('/').slice(1);
    if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
    const [prefix, a, b, ...rest] = parts;
    if (rest.length > 0) return false;
    // /api, /api/v1 and /apis/<group>/<version> are go-restful routes producing the three
    // serializers' types (/apis and /apis/<group> are not: only their handler negotiates).
    const restful =
      prefix === 'api' ? b === undefined : prefix === 'apis' && a !== undefined && b !== undefined;
    if (restful && this.serves(prefix, a, b)) {
      // go-restful's routes take GET only (405 before its 406); the other two serve HEAD as GET.
      if (req.method === 'HEAD') {
        writeError(req, res, restfulMethodNotAllowed());
        return true;
      }
      if (!restfulAccepts(req.headers.accept, RESOURCE_PRODUCES)) {
        writeError(req, res, restfulNotAcceptable());
        return true;
      }
    }
    return this.route(req, res, url, path, prefix, a, b);
  }

  /** Whether a go-restful discovery path names something served (else the next handler's 404). */
  private serves(prefix: string | undefined, a: string | undefined, b: string | undefined): boolean {
    if (prefix === 'api') return a === undefined || this.core?.versions.some((v) => v.version === a) === true;
    const group = this.named.find((g) => g.group === a);
    return group?.versions.some((v) => v.version === b) === true;
  }

  private writeVersion(res: ServerResponse): void {
    // The real /version handler always indents (WriteRawJSON), whatever ?pretty says.
    const body = JSON.stringify(this.options.version ?? versionInfo(), null, 2);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  }

  private route(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    path: string,
    prefix: string | undefined,
    a: string | undefined,
    b: string | undefined,
  ): boolean {
    if (prefix === 'api') {
      if (a === undefined) {
        const addresses: ServerAddress[] = [
          { clientCIDR: '0.0.0.0/0', serverAddress: this.options.serverAddress ?? localAddress(req) },
        ];
        return this.respond(req, res, url, apiVersions(this.core, addresses), this.aggregatedApi);
      }
      const version = this.core?.versions.find((v) => v.version === a);
      if (!version || b !== undefined) return false;
      return this.respond(req, res, url, apiResourceList('', version));
    }
    if (prefix !== 'apis') return false;
    if (a === undefined) {
      // Only the exact /apis offers the aggregated form; /apis/ is the legacy handler alone.
      const aggregated = path === '/apis' ? this.aggregatedApis : undefined;
      return this.respond(req, res, url, apiGroupList(this.named), aggregated);
    }
    const group = this.named.find((g) => g.group === a);
    if (!group) return false;
    if (b === undefined) return this.respond(req, res, url, apiGroupDocument(group));
    const version = group.versions.find((v) => v.version === b);
    if (!version) return false;
    return this.respond(req, res, url, apiResourceList(group.group, version));
  }

  private respond(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    legacy: unknown,
    aggregated?: { body: unknown; etag: string },
  ): true {
    const format = negotiateDiscovery(req.headers.accept, aggregated !== undefined);
    if (format === undefined) {
      writeError(req, res, notAcceptable(SERVED_MEDIA_TYPES));
    } else if (format === 'legacy' || !aggregated) {
      writeObject(req, res, url, 200, legacy);
    } else {
      const headers = { ETag: aggregated.etag, Vary: 'Accept', 'Cache-Control': 'public' };
      if (req.headers['if-none-match'] === aggregated.etag) {
        res.writeHead(304, headers);
        res.end();
        return true;
      }
      const body = serialize(aggregated.body, wantsPretty(req, url));
      res.writeHead(200, {
        ...headers,
        'Content-Type': aggregatedContentType,
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
    }
    return true;
  }
}

/** Express adapter: unknown paths and other methods go to `next()`. */
export function discoveryHandler(
  groups: readonly DiscoveryGroup[],
  options: DiscoveryOptions = {},
): RequestHandler {
  const service = new DiscoveryService(groups, options);
  return function discovery(req, res, next) {
    // Only GET and HEAD are served here: every other request (each write) passes on without
    // its URL being parsed.
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // /version is a go-restful route: another method is its 405, not a 404.
      if (isVersionPath((req.originalUrl || req.url || '').split('?')[0] ?? '')) {
        writeError(req, res, restfulMethodNotAllowed());
        return;
      }
      next();
      return;
    }
    const url = requestURL(req.originalUrl || req.url);
    if (!service.handle(req, res, url)) next();
  };
}
