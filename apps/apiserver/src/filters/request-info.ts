import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { requestInfo, type RequestInfo } from '../endpoints/request-info.js';
import { setContext } from './context.js';
import { parseTarget, writeBadRequestTarget } from './request-target.js';

export interface DecodedRequest {
  readonly url: URL;
  readonly info: RequestInfo;
}

const DECODED = Symbol('keel.decodedRequest');
type Memo = IncomingMessage & { [DECODED]?: DecodedRequest | null };

/**
 * The request's URL and what it asks for, decoded once per request: the drain classifies
 * requests (long-running or not) on arrival, before the filter chain, and both read this.
 * undefined for a target that is not a URL.
 */
export function decodeRequest(req: IncomingMessage): DecodedRequest | undefined {
  const memo = req as Memo;
  if (memo[DECODED] === undefined) {
    const url = parseTarget(req.url);
    memo[DECODED] = url ? { url, info: requestInfo(req.method ?? 'GET', url) } : null;
  }
  return memo[DECODED] ?? undefined;
}

/** Decodes the request (path, verb, group, resource, namespace, name) for every later filter. */
export function withRequestInfo(): RequestHandler {
  return function requestInfoFilter(req, res, next) {
    const decoded = decodeRequest(req);
    if (decoded === undefined) {
      // withRoutableTarget refuses these first; this keeps the filter safe on its own.
      writeBadRequestTarget(req, res);
      return;
    }
    setContext(res, { ...decoded, auditID: '', longRunning: decoded.info.verb === 'watch' });
    next();
  };
}
