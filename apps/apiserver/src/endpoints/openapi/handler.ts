import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notAcceptable } from '@keel/apimachinery';
import type { RequestHandler } from 'express';
import { parseAccept, rangeMatches } from '../discovery/media-type.js';
import { writeError } from '../respond.js';
import {
  byGroupVersion,
  indexKey,
  openapiV2Document,
  openapiV3Document,
  type GroupVersionViews,
} from './documents.js';
import { openapiV2Protobuf } from './v2-proto.js';
import type { OpenAPIView } from './operations.js';
import type { Definitions } from './schema.js';
import { requestURL } from '../../filters/request-target.js';

/** A served document: its exact bytes and their content hash (uppercase hex SHA-512, as kube-openapi). */
interface Served {
  readonly body: Buffer;
  readonly hash: string;
}

function served(doc: unknown): Served {
  return servedBytes(Buffer.from(JSON.stringify(doc)));
}

function servedBytes(body: Buffer): Served {
  return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
}

/** The protobuf media types /openapi/v2 answers (kube-openapi's, old spelling included). */
const PROTOBUF_V2 = [
  'com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'com.github.proto-openapi.spec.v2.v1.0+protobuf',
] as const;

export interface OpenAPIOptions {
  /** Schemas for kinds beyond the built-in catalogue (meta/v1 and Events), by definition name. */
  readonly definitions?: Definitions;
}

/**
 * Serves /openapi/v3 (the index and one document per group version) and /openapi/v2 (JSON only)
 * like kube-openapi: ETag and If-None-Match everywhere; a v3 document fetched with the hash the
 * index names is immutable; a stale hash redirects to the current one.
 */
export class OpenAPIService {
  // Each document is built on its first request, not at start-up: building them all takes
  // several hundred milliseconds of CPU, more than the rest of the server's start (upstream
  // builds its v3 documents lazily too). The views are fixed at start-up, so a built document
  // never goes stale.
  private readonly v3Keys: ReadonlySet<string>;
  private readonly v3 = lazy(() => this.buildV3());
  private readonly v2Document = lazy(() => openapiV2Document(this.gvs, this.options.definitions));
  private readonly v2 = lazy(() => served(this.v2Document()));
  private readonly v2Protobuf = lazy(() => servedBytes(openapiV2Protobuf(this.v2Document())));
  private readonly gvs: readonly GroupVersionViews[];

  constructor(
    views: readonly OpenAPIView[],
    private readonly options: OpenAPIOptions = {},
  ) {
    this.gvs = byGroupVersion(views);
    this.v3Keys = new Set([...this.gvs].map(indexKey));
  }

  private buildV3(): { readonly docs: ReadonlyMap<string, Served>; readonly index: Served } {
    const docs = new Map<string, Served>();
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const gv of [...this.gvs].sort((a, b) => (indexKey(a) < indexKey(b) ? -1 : 1))) {
      const doc = served(openapiV3Document(gv, this.gvs, this.options.definitions));
      const key = indexKey(gv);
      docs.set(key, doc);
      paths[key] = { serverRelativeURL: v3URL(key, doc.hash) };
    }
    return { docs, index: served({ paths }) };
  }

  /** Returns false for paths it does not serve. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = url.pathname;
    if (path === '/openapi/v3') {
      send(req, res, this.v3().index, 'application/json', {});
      return true;
    }
    if (path === '/openapi/v2') {
      return this.negotiatedV2(req, res);
    }
    if (!path.startsWith('/openapi/v3/')) return false;
    const key = path.slice('/openapi/v3/'.length);
    if (!this.v3Keys.has(key)) return false;
    const doc = this.v3().docs.get(key);
    if (!doc) return false;
    const hash = url.searchParams.get('hash');
    if (hash !== null && hash !== '' && hash !== doc.hash) {
      redirect(res, v3URL(key, doc.hash));
      return true;
    }
    const cache: Record<string, string> = hash
      ? { 'Cache-Control': 'public, immutable', Expires: oneYearFromNow() }
      : {};
    return this.negotiated(req, res, doc, cache);
  }

  /** JSON for any Accept that admits it; a protobuf-only Accept is 406, never JSON. */
  private negotiated(
    req: IncomingMessage,
    res: ServerResponse,
    doc: Served,
    headers: Record<string, string>,
  ): true {
    res.setHeader('Vary', 'Accept');
    if (!parseAccept(req.headers.accept).some((c) => rangeMatches(c, 'application', 'json'))) {
      writeError(req, res, notAcceptable(['application/json']));
      return true;
    }
    send(req, res, doc, 'application/json', headers);
    return true;
  }

  /**
   * The first Accept clause that names JSON or the OpenAPI protobuf decides (kube-openapi's v2
   * handler); JSON wins a wildcard. Anything else is 406.
   */
  private negotiatedV2(req: IncomingMessage, res: ServerResponse): true {
    res.setHeader('Vary', 'Accept');
    for (const c of parseAccept(req.headers.accept)) {
      if (rangeMatches(c, 'application', 'json')) {
        send(req, res, this.v2(), 'application/json', {});
        return true;
      }
      const pb = PROTOBUF_V2.find((sub) => c.type === 'application' && c.subtype === sub);
      if (pb) {
        // Always the dotted spelling: Go's mime parser (client-go) refuses the `@` in a Content-Type.
        send(req, res, this.v2Protobuf(), `application/${PROTOBUF_V2[1]}`, {});
        return true;
      }
    }
    // kube-openapi's own 406: a bare status, no body and no Content-Type.
    res.writeHead(406, { 'Content-Length': 0 });
    res.end();
    return true;
  }
}

/** `fn`'s result, computed on the first call. */
function lazy<T>(fn: () => T): () => T {
  let value: { readonly v: T } | undefined;
  return () => (value ??= { v: fn() }).v;
}

function v3URL(key: string, hash: string): string {
  return `/openapi/v3/${key}?hash=${hash}`;
}

function oneYearFromNow(): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.toUTCString();
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  doc: Served,
  contentType: string,
  headers: Record<string, string>,
): void {
  const etag = `"${doc.hash}"`;
  const common = { ...headers, ETag: etag };
  const inm = req.headers['if-none-match'];
  if (inm !== undefined && (inm.trim() === '*' || inm.split(',').some((t) => t.trim() === etag))) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  res.writeHead(200, { ...common, 'Content-Type': contentType, 'Content-Length': doc.body.length });
  res.end(doc.body);
}

/** Go's http.Redirect for a GET: 301, Location and a tiny HTML body. */
function redirect(res: ServerResponse, location: string): void {
  const body = `<a href="${location.replace(/&/g, '&amp;')}">Moved Permanently</a>.\n\n`;
  res.writeHead(301, {
    Location: location,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Express adapter: unknown paths and other methods go to `next()`. */
export function openapiHandler(views: readonly OpenAPIView[], options: OpenAPIOptions = {}): RequestHandler {
  const service = new OpenAPIService(views, options);
  return function openapi(req, res, next) {
    // Only GET and HEAD are served here: every other request (each write) passes on without
    // its URL being parsed.
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    const url = requestURL(req.originalUrl || req.url);
    if (!service.handle(req, res, url)) next();
  };
}
