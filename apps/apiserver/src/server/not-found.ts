import type { RequestHandler } from 'express';
import { notFoundStatus } from '../endpoints/dispatch.js';
import { writeError } from '../endpoints/respond.js';

/**
 * The last handler: API paths get the real server's 404 Status, anything else the plain-text
 * `404 page not found` that Go's http.NotFound writes (clients show it as-is).
 */
export function notFoundHandler(): RequestHandler {
  return function notFound(req, res) {
    if (/^\/apis?(\/|$)/.test(req.path)) {
      writeError(req, res, notFoundStatus());
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
    res.end('404 page not found\n');
  };
}
