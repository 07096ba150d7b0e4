import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzip } from 'node:zlib';
import { toStatus } from '@keel/apimachinery';
import type { Logger } from '@keel/log';
import { maybeContext } from '../filters/context.js';
import { requestURL } from '../filters/request-target.js';

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
  const length = Buffer.byteLength(body);
  if (length < GZIP_THRESHOLD || !mayGzip(res)) {
    res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': length });
    res.end(body);
    return;
  }
  // Off the event loop: a large body takes milliseconds to compress.
  gzip(body, { level: GZIP_LEVEL }, (err, zipped) => {
    if (res.destroyed) return;
    if (err) {
      res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': length });
      res.end(body);
      return;
    }
    res.writeHead(code, {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
      Vary: 'Accept-Encoding',
      'Content-Length': zipped.length,
    });
    res.end(zipped);
  });
}

export function writeObject(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  code: number,
  obj: unknown,
): void {
  writeJson(res, code, serialize(obj, wantsPretty(req, url)));
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
  writeObject(req, res, url, code, status);
}
