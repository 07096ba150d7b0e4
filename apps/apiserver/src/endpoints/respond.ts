import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzip } from 'node:zlib';
import { toStatus } from '@keel/apimachinery';
import type { Logger } from '@keel/log';
import { loadedProtobuf, loadProtobuf, PROTOBUF, type KubeProtobuf } from '@keel/protobuf';
import { maybeContext } from '../filters/context.js';
import { requestURL } from '../filters/request-target.js';
import { negotiateMediaOptions, PLAIN, RESOURCE, type Restrictions } from './media-options.js';
import { mentionsProtobuf } from './negotiate.js';
import { partialTarget, transformResponse } from './partial-metadata.js';
import { toKubeYaml } from './yaml-output.js';

/**
 * kube gzips a response only from this size (and at level 1): below it the CPU costs more than
 * the bytes saved.
 */
export const GZIP_THRESHOLD = 128 * 1024;
export const GZIP_LEVEL = 1;

/** Whether this response may be gzipped once it reaches GZIP_THRESHOLD (see filters/compression.ts). */
export function mayGzip(res: ServerResponse): boolean {
  return maybeContext(res)?.gzip === true;
}

/**
 * `?pretty=true|1` indents; any false value turns it off even for curl; without the parameter,
 * curl, Wget and browsers get indented output, as from the real server.
 */
export function wantsPretty(req: IncomingMessage, url: URL): boolean {
  const p = url.searchParams.get('pretty');
  if (p !== null) return /^(1|t|true)$/i.test(p);
  return /^(curl|Wget|Mozilla\/5\.0)/.test(req.headers['user-agent'] ?? '');
}

export function serialize(obj: unknown, pretty: boolean): string {
  // The Go encoder ends every object with a newline; its pretty printer does not.
  return pretty ? JSON.stringify(obj, null, 2) : JSON.stringify(obj) + '\n';
}

export function writeJson(res: ServerResponse, code: number, body: string): void {
  writeBody(res, code, body, 'application/json');
}

/** A whole response body, gzipped from GZIP_THRESHOLD when the client takes it. */
export function writeBody(
  res: ServerResponse,
  code: number,
  body: string | Buffer,
  contentType: string,
): void {
  const length = Buffer.byteLength(body);
  if (length < GZIP_THRESHOLD || !mayGzip(res)) {
    res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': length });
    res.end(body);
    return;
  }
  // Off the event loop: a large body takes milliseconds to compress.
  gzip(body, { level: GZIP_LEVEL }, (err, zipped) => {
    if (res.destroyed) return;
    if (err) {
      res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': length });
      res.end(body);
      return;
    }
    res.writeHead(code, {
      'Content-Type': contentType,
      'Content-Encoding': 'gzip',
      Vary: 'Accept-Encoding',
      'Content-Length': zipped.length,
    });
    res.end(zipped);
  });
}

/**
 * Whether `obj` is an object with a protobuf message (a Table, for one, has none). Discovery's
 * /api and /api/v1 documents have no apiVersion, as upstream's (their envelope's is empty).
 */
function protobufKind(pb: KubeProtobuf, obj: unknown): obj is Record<string, unknown> {
  if (typeof obj !== 'object' || obj === null) return false;
  const { apiVersion = '', kind } = obj as Record<string, unknown>;
  return typeof apiVersion === 'string' && typeof kind === 'string' && pb.hasKind(apiVersion, kind);
}

/**
 * The codec when the client's Accept picks protobuf for this object. The codec loads on the
 * first request that names protobuf (resource handlers wait for it in serve(); see
 * protobufLoading), so a server whose clients all speak JSON never loads it. `restrictions`
 * says whether `as=` clauses count (a resource response) or are passed over (errors, discovery).
 */
export function protobufFor(
  req: IncomingMessage,
  obj: unknown,
  restrictions: Restrictions = PLAIN,
): KubeProtobuf | undefined {
  const pb = loadedProtobuf();
  if (!pb || !mentionsProtobuf(req.headers.accept)) return undefined;
  const ok = protobufKind(pb, obj);
  const media = negotiateMediaOptions(req.headers.accept, { ...restrictions, protobuf: ok });
  return media?.encoding === 'protobuf' && ok ? pb : undefined;
}

/**
 * The codec's loading when the client's Accept names protobuf and it is not loaded yet; undefined
 * otherwise, so that JSON requests (and protobuf ones once it is loaded) wait for nothing.
 */
export function protobufLoading(req: IncomingMessage): Promise<unknown> | undefined {
  return mentionsProtobuf(req.headers.accept) && !loadedProtobuf() ? loadProtobuf() : undefined;
}

/**
 * Writes an object in the encoding the client's Accept picks: protobuf for a kind that has a
 * message when protobuf comes first, else JSON. The one place every response object is encoded.
 */
export function writeObject(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  code: number,
  obj: unknown,
  restrictions: Restrictions = PLAIN,
): void {
  if (mentionsProtobuf(req.headers.accept) && !loadedProtobuf()) {
    // Only errors written before any handler ran (filters, 404s) get here; JSON if loading fails.
    loadProtobuf().then(
      () => writeObject(req, res, url, code, obj, restrictions),
      () => writeJson(res, code, serialize(obj, wantsPretty(req, url))),
    );
    return;
  }
  const pb = protobufFor(req, obj, restrictions);
  if (pb) writeBody(res, code, pb.encode(obj as Record<string, unknown>), PROTOBUF);
  else if (wantsYaml(req, restrictions)) writeBody(res, code, toKubeYaml(obj), YAML);
  else writeJson(res, code, serialize(obj, wantsPretty(req, url) || prettyMedia(req, restrictions)));
}

const YAML = 'application/yaml';

/**
 * Whether the Accept header picks the YAML serializer (looked for only when the header names
 * it): the reference answers `application/yaml` for any object, errors and discovery included.
 */
export function wantsYaml(req: IncomingMessage, restrictions: Restrictions = RESOURCE): boolean {
  const accept = req.headers.accept;
  return (
    accept?.includes('yaml') === true && negotiateMediaOptions(accept, restrictions)?.encoding === 'yaml'
  );
}

/** Whether the negotiated clause says `pretty=1` (looked for only when the header names it). */
function prettyMedia(req: IncomingMessage, restrictions: Restrictions): boolean {
  const accept = req.headers.accept;
  return accept?.includes('pretty') === true && negotiateMediaOptions(accept, restrictions)?.pretty === true;
}

/**
 * A resource handler's response (transformResponseObject): the object, or its
 * PartialObjectMetadata(List) when the negotiated media type asks for one (a 406 when it asks
 * for the list form of an object or the other way round), in the negotiated encoding.
 */
export function writeResourceObject(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  code: number,
  obj: object,
): void {
  const target = partialTarget(negotiateMediaOptions(req.headers.accept, RESOURCE));
  // Every response object here is a wire form (a plain JSON object).
  const out = target ? transformResponse(obj as Record<string, unknown>, target) : obj;
  writeObject(req, res, url, code, out, RESOURCE);
}

/**
 * json.MarshalIndent as WriteRawJSON writes it: two-space indents, no final newline, and
 * encoding/json's HTML escaping.
 */
export function rawJson(obj: unknown): string {
  return JSON.stringify(obj, null, 2).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The single place that turns any error into a Status response: known errors keep their code,
 * anything else becomes a 500 InternalError whose cause is logged, never sent.
 */
export function writeError(req: IncomingMessage, res: ServerResponse, err: unknown, logger?: Logger): void {
  const status = toStatus(err);
  const code = status.code ?? 500;
  if (code >= 500 && logger) logger.error('Request failed', { path: req.url ?? '', err });
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const retry = status.details?.retryAfterSeconds;
  if (retry !== undefined && retry > 0) res.setHeader('Retry-After', String(retry));
  const url = requestURL(req.url);
  // An error is negotiated with no conversion allowed (ErrorNegotiated): when no clause is left
  // (an Accept of only `as=` clauses, or of nothing served) the reference falls back to
  // WriteRawJSON, indented JSON whatever ?pretty says.
  if (negotiateMediaOptions(req.headers.accept, PLAIN) === undefined) writeJson(res, code, rawJson(status));
  else writeObject(req, res, url, code, status);
}
