import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { Auditor } from '@keel/audit';
import type { Authenticator, Authorizer } from '@keel/auth';
import type { FlowController } from '@keel/flowcontrol';
import type { Logger } from '@keel/log';
import { withAudit } from '../filters/audit.js';
import { withAuditID } from '../filters/audit-id.js';
import { withAuthentication } from '../filters/authentication.js';
import { withAuthorization } from '../filters/authorization.js';
import { withProbabilisticGoaway } from '../filters/goaway.js';
import { withCompression } from '../filters/compression.js';
import { withCORS, withHSTS } from '../filters/hsts-cors.js';
import { withImpersonation } from '../filters/impersonation.js';
import { InFlightRequests, withMaxInFlight } from '../filters/max-in-flight.js';
import { withPriorityAndFairness } from '../filters/priority-and-fairness.js';
import { listWorkEstimator } from '../filters/work-estimate.js';
import { withRecovery } from '../filters/recovery.js';
import { withRequestInfo } from '../filters/request-info.js';
import { withTimeout } from '../filters/timeout.js';
import { withTracing } from '../filters/tracing.js';
import { withRequestMetrics, type ApiServerMetrics } from '../metrics/index.js';

export interface HandlerChainConfig {
  readonly logger: Logger;
  readonly authenticator: Authenticator;
  readonly authorizer: Authorizer;
  /** undefined: nothing is audited. */
  readonly auditor?: Auditor | undefined;
  readonly strictTransportSecurity: string | undefined;
  readonly corsAllowedOrigins: readonly RegExp[];
  /** --goaway-chance; 0 leaves the filter out. */
  readonly goawayChance: number;
  readonly maxRequestsInFlight: number;
  readonly maxMutatingRequestsInFlight: number;
  /**
   * --enable-priority-and-fairness: the controller that queues requests in place of the
   * in-flight limits; undefined keeps the in-flight limits.
   */
  readonly priorityAndFairness?: FlowController | undefined;
  readonly requestTimeoutMs: number;
  readonly metrics: ApiServerMetrics;
  /** The APIResponseCompression gate: large responses are gzipped for clients that accept it. */
  readonly compression: boolean;
  /** --tracing-config-file: every authenticated request gets a server span. */
  readonly tracing: boolean;
  /** The UnauthenticatedHTTP2DOSMitigation gate: an HTTP/2 connection ends after a refused or anonymous request. */
  readonly http2DosMitigation: boolean;
}

/**
 * The one place that knows the filter order, outermost first:
 *   recovery     - catches everything below (registered last, as Express error middleware);
 *   request info - decodes path and verb once for every later filter;
 *   metrics      - counts every request, refusals by later filters included;
 *   audit ID     - so every response, even a 401, carries Audit-ID;
 *   HSTS         - a header every answer carries;
 *   GOAWAY       - with --goaway-chance, `Connection: close` on a random fraction of requests
 *     (a GOAWAY frame on HTTP/2);
 *     inside HSTS and outside authentication and the limits, as in kube, so a 401 or a 429
 *     may say it too;
 *   CORS         - headers and preflight answers that must not need credentials;
 *   authentication, then tracing (a span per request; whether it joins the caller's trace
 *     depends on who the caller is), audit (events name the user, denied requests are audited),
 *   impersonation (acting as another identity; checked for the authenticated user, so its
 *     refusals are audited under that user),
 *   the concurrency limit, exactly one of: priority and fairness (classified by the identity
 *     the request acts as) or the in-flight limits; before authorization, as in kube, so a
 *     flood of denied requests is limited too,
 *   authorization of the identity the request acts as,
 *   request timeout, compression (marks what the writers may gzip), and finally the handlers.
 */
export function buildHandlerChain(config: HandlerChainConfig, handlers: readonly RequestHandler[]): Express {
  const app = express();
  app.disable('x-powered-by');
  // Express's fallback error page prints the stack trace unless it runs in production mode.
  app.set('env', 'production');
  app.disable('etag');
  app.set('query parser', false);
  const inFlight = new InFlightRequests();
  config.metrics.setInFlightSource(() => inFlight);
  runWithoutRouter(
    app,
    chain([
      withRequestInfo(),
      withRequestMetrics(config.metrics),
      withAuditID(),
      withHSTS(config.strictTransportSecurity),
      ...(config.goawayChance > 0 ? [withProbabilisticGoaway(config.goawayChance)] : []),
      withCORS(config.corsAllowedOrigins),
      withAuthentication(config.authenticator, config.auditor, config.http2DosMitigation),
      ...(config.tracing ? [withTracing()] : []),
      withAudit(config.auditor, config.metrics.audit),
      withImpersonation(config.authorizer),
      config.priorityAndFairness
        ? withPriorityAndFairness(
            config.priorityAndFairness,
            config.requestTimeoutMs / 4,
            inFlight,
            listWorkEstimator(config.metrics.objectCounts),
          )
        : withMaxInFlight(config.maxRequestsInFlight, config.maxMutatingRequestsInFlight, inFlight),
      withAuthorization(config.authorizer),
      withTimeout(config.requestTimeoutMs),
      ...(config.compression ? [withCompression()] : []),
      ...handlers,
    ]),
    withRecovery(config.logger),
  );
  return app;
}

/** What Express's application object holds that its dispatch uses (absent from @types/express). */
interface Application {
  readonly request: object;
  readonly response: object;
  handle: (this: Application, req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * Makes `app` run the chain directly, as Express's own app.handle does minus its router: the
 * router matched the chain's single layer by path for every request, and with its per-request
 * closures and URL parsing it was among the larger costs in the create path's profile. Requests
 * still get Express's request and response prototypes and `res.locals`, and `this` is the app
 * the caller dispatched through (the HTTP/2 bridge passes a view with its own prototypes).
 * A thrown error or next(err) goes to `recovery`; the not-found handler answers everything else,
 * so the chain's end is only reached by a handler that passes a request on regardless.
 */
function runWithoutRouter(app: Express, filters: RequestHandler, recovery: ErrorRequestHandler): void {
  type Req = Parameters<RequestHandler>[0];
  type Res = Parameters<RequestHandler>[1];
  (app as unknown as Application).handle = function handle(rawReq, rawRes) {
    // The listener makes HTTP/1.1 requests with these prototypes already (http1Classes).
    const req = (
      Object.prototype.isPrototypeOf.call(this.request, rawReq)
        ? rawReq
        : Object.setPrototypeOf(rawReq, this.request)
    ) as Req;
    const res = (
      Object.prototype.isPrototypeOf.call(this.response, rawRes)
        ? rawRes
        : Object.setPrototypeOf(rawRes, this.response)
    ) as Res;
    req.res = res;
    res.req = req;
    res.locals ??= Object.create(null) as Res['locals'];
    req.originalUrl ??= req.url;
    req.baseUrl = '';
    const done = (err?: unknown): void => {
      if (err !== undefined && err !== null) {
        try {
          recovery(err, req, res, () => undefined);
        } catch {
          res.destroy();
        }
        return;
      }
      if (res.headersSent) return;
      res.writeHead(404, {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end('404 page not found\n');
    };
    try {
      void filters(req, res, done);
    } catch (err) {
      done(err);
    }
  };
}

/**
 * Runs the filters in order as one Express layer: Express's router would match every filter's
 * path separately, which showed up in the request path's profile for no benefit (all match '/').
 * A filter's thrown error or next(err) goes to the recovery handler, as with app.use.
 */
function chain(steps: readonly RequestHandler[]): RequestHandler {
  return function filterChain(req, res, done) {
    let i = 0;
    const next = (err?: unknown): void => {
      if (err !== undefined && err !== null) {
        done(err);
        return;
      }
      const step = steps[i++];
      if (!step) {
        done();
        return;
      }
      try {
        void step(req, res, next);
      } catch (e) {
        done(e);
      }
    };
    next();
  };
}
