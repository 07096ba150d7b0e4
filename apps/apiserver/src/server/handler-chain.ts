import express, { type Express, type RequestHandler } from 'express';
import type { Authenticator, Authorizer } from '@keel/auth';
import type { Logger } from '@keel/log';
import { withAudit } from '../filters/audit.js';
import { withAuditID } from '../filters/audit-id.js';
import { withAuthentication } from '../filters/authentication.js';
import { withAuthorization } from '../filters/authorization.js';
import { withCORS, withHSTS } from '../filters/hsts-cors.js';
import { withMaxInFlight } from '../filters/max-in-flight.js';
import { withRecovery } from '../filters/recovery.js';
import { withRequestInfo } from '../filters/request-info.js';
import { withTimeout } from '../filters/timeout.js';

export interface HandlerChainConfig {
  readonly logger: Logger;
  readonly authenticator: Authenticator;
  readonly authorizer: Authorizer;
  readonly strictTransportSecurity: string | undefined;
  readonly corsAllowedOrigins: readonly RegExp[];
  readonly maxRequestsInFlight: number;
  readonly maxMutatingRequestsInFlight: number;
  readonly requestTimeoutMs: number;
}

/**
 * The one place that knows the filter order, outermost first:
 *   recovery     - catches everything below (registered last, as Express error middleware);
 *   request info - decodes path and verb once for every later filter;
 *   audit ID     - so every response, even a 401, carries Audit-ID;
 *   HSTS, CORS   - headers and preflight answers that must not need credentials;
 *   authentication, then audit (events name the user, denied requests are audited),
 *   authorization, then in-flight limits (refused requests never hold a slot),
 *   request timeout, and finally the handlers.
 */
export function buildHandlerChain(config: HandlerChainConfig, handlers: readonly RequestHandler[]): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false);
  app.use(withRequestInfo());
  app.use(withAuditID());
  app.use(withHSTS(config.strictTransportSecurity));
  app.use(withCORS(config.corsAllowedOrigins));
  app.use(withAuthentication(config.authenticator));
  app.use(withAudit());
  app.use(withAuthorization(config.authorizer));
  app.use(withMaxInFlight(config.maxRequestsInFlight, config.maxMutatingRequestsInFlight));
  app.use(withTimeout(config.requestTimeoutMs));
  for (const h of handlers) app.use(h);
  app.use(withRecovery(config.logger));
  return app;
}
