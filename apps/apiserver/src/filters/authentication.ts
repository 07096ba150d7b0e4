import type { RequestHandler } from 'express';
import { unauthorized } from '@keel/apimachinery';
import {
  ALL_UNAUTHENTICATED,
  ANONYMOUS_USER,
  newAuthenticationContext,
  stripCredentialHeaders,
  warningHeaderValue,
  type Authenticator,
} from '@keel/auth';
import type { Auditor } from '@keel/audit';
import { writeError } from '../endpoints/respond.js';
import { auditFailedAuthentication } from './audit.js';
import { context } from './context.js';

/**
 * Establishes who is asking. Bad credentials are a 401 whatever --anonymous-auth says; no
 * credentials are anonymous when that is on (the authenticator chain decides), else a 401.
 * On success the credentials are removed so nothing further down can see or forward them.
 *
 * `http2DosMitigation` (the UnauthenticatedHTTP2DOSMitigation gate): an HTTP/2 connection is
 * cheap to abuse, so one that carried a refused or anonymous request gets no further one:
 * `Connection: close`, which the serving layer turns into a GOAWAY after this response.
 */
export function withAuthentication(
  authenticator: Authenticator,
  auditor?: Auditor,
  http2DosMitigation = false,
): RequestHandler {
  return function authenticationFilter(req, res, next) {
    const ctx = newAuthenticationContext();
    const limitToOne = () => {
      if (http2DosMitigation && req.httpVersionMajor === 2) res.setHeader('Connection', 'close');
    };
    authenticator.authenticate(req, ctx).then(
      (outcome) => {
        if (ctx.warnings.length > 0) res.setHeader('Warning', ctx.warnings.map(warningHeaderValue));
        if (!outcome || !('user' in outcome)) {
          limitToOne();
          auditFailedAuthentication(auditor, req, res);
          writeError(req, res, unauthorized());
          return;
        }
        const { name, groups } = outcome.user;
        if (name === ANONYMOUS_USER || groups.includes(ALL_UNAUTHENTICATED)) limitToOne();
        context(res).user = outcome.user;
        stripCredentialHeaders(req, ctx);
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
