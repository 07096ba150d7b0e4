import type { RequestHandler } from 'express';
import { unauthorized } from '@keel/apimachinery';
import {
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
 */
export function withAuthentication(authenticator: Authenticator, auditor?: Auditor): RequestHandler {
  return function authenticationFilter(req, res, next) {
    const ctx = newAuthenticationContext();
    authenticator.authenticate(req, ctx).then(
      (outcome) => {
        if (ctx.warnings.length > 0) res.setHeader('Warning', ctx.warnings.map(warningHeaderValue));
        if (!outcome || !('user' in outcome)) {
          auditFailedAuthentication(auditor, req, res);
          writeError(req, res, unauthorized());
          return;
        }
        context(res).user = outcome.user;
        stripCredentialHeaders(req, ctx);
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
