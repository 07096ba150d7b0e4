import type { RequestHandler } from 'express';

/** `Strict-Transport-Security` from --strict-transport-security-directives (none when unset). */
export function withHSTS(value: string | undefined): RequestHandler {
  return function hstsFilter(_req, res, next) {
    if (value !== undefined) res.setHeader('Strict-Transport-Security', value);
    next();
  };
}

/**
 * CORS for origins matching --cors-allowed-origins (regular expressions); preflight requests are
 * answered here, before authentication, as the real server does.
 */
export function withCORS(patterns: readonly RegExp[]): RequestHandler {
  return function corsFilter(req, res, next) {
    const origin = req.headers.origin;
    if (patterns.length === 0 || !origin || !patterns.some((p) => p.test(origin))) {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', 'POST, GET, OPTIONS, PUT, DELETE, PATCH');
    res.setHeader(
      'Access-Control-Allow-Headers',
      'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since',
    );
    res.setHeader('Access-Control-Expose-Headers', 'Date');
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}
