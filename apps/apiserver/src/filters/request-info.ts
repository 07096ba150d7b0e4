import type { RequestHandler } from 'express';
import { requestInfo, setRequestInfo } from '../endpoints/request-info.js';
import { setContext } from './context.js';

/** Decodes the request once (path, verb, group, resource, namespace, name) for every later filter. */
export function withRequestInfo(): RequestHandler {
  return function requestInfoFilter(req, res, next) {
    const url = new URL(req.originalUrl, 'https://localhost');
    const info = requestInfo(req.method, url);
    setRequestInfo(req, info);
    setContext(res, { url, info, auditID: '', longRunning: info.verb === 'watch' });
    next();
  };
}
