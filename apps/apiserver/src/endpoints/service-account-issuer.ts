import type { RequestHandler } from 'express';
import { JWKS_PATH, OPENID_CONFIGURATION_PATH, type OpenIDMetadata } from '@keel/auth';
import { context } from '../filters/context.js';
import { writeError } from './respond.js';
import { restfulAccepts, restfulNotAcceptable } from './restful-route.js';

// Relying parties may cache both documents for an hour, as upstream tells them.
const CACHE_CONTROL = 'public, max-age=3600';

/**
 * Service account issuer discovery (routes.OpenIDMetadataServer): the pre-rendered OpenID
 * configuration and key set, on GET only. They pass authentication and authorization like every
 * non-resource path; RBAC's system:service-account-issuer-discovery role grants them.
 */
export function serviceAccountIssuerHandler(md: OpenIDMetadata): RequestHandler {
  const documents: Readonly<Record<string, readonly [string, string]>> = {
    [OPENID_CONFIGURATION_PATH]: [md.configJSON, 'application/json'],
    [JWKS_PATH]: [md.jwksJSON, 'application/jwk-set+json'],
  };
  return function serviceAccountIssuer(req, res, next) {
    const doc = req.method === 'GET' ? documents[context(res).url.pathname] : undefined;
    if (!doc) {
      next();
      return;
    }
    const [body, contentType] = doc;
    // Each is a go-restful route producing only its own type: any other Accept is its 406.
    if (!restfulAccepts(req.headers.accept, [contentType])) {
      writeError(req, res, restfulNotAcceptable());
      return;
    }
    res.writeHead(200, {
      'Content-Type': contentType,
      'Cache-Control': CACHE_CONTROL,
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  };
}
