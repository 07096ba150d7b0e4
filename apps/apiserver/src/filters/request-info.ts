import type { RequestHandler } from 'express';
import { requestInfo, setRequestInfo } from '../endpoints/request-info.js';
import { setContext } from './context.js';
import { parseTarget, writeBadRequestTarget } from './request-target.js';

/** Decodes the request once (path, verb, group, resource, namespace, name) for every later filter. */
export function withRequestInfo(): RequestHandler {
  return function requestInfoFilter(req, res, next) {
    const url = parseTarget(req.originalUrl);
    if (url === undefined) {
      // withRoutableTarget refuses these first; this keeps the filter safe on its own.
      writeBadRequestTarget(req, res);
      return;
    }
    const info = requestInfo(req.method, url);
    setRequestInfo(req, info);
    setContext(res, { url, info, auditID: '', longRunning: info.verb === 'watch' });
    next();
  };
}
