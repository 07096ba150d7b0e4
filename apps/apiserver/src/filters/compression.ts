import type { RequestHandler } from 'express';
import { context } from './context.js';

/** Whether an Accept-Encoding header lists gzip (kube looks for the token, ignoring q-values). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((token) => token.split(';')[0]?.trim().toLowerCase() === 'gzip');
}

/**
 * The APIResponseCompression gate: marks the responses the writers may gzip (see
 * endpoints/respond.ts for the size threshold). Watches are never compressed: their events must
 * reach the client as they happen, not when a compression block fills.
 */
export function withCompression(): RequestHandler {
  return function compressionFilter(req, res, next) {
    const ctx = context(res);
    ctx.gzip = !ctx.longRunning && acceptsGzip(req.headers['accept-encoding']);
    next();
  };
}
