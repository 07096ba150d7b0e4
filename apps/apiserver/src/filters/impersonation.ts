import type { RequestHandler } from 'express';
import { impersonate, impersonationRequests, stripImpersonationHeaders, type Authorizer } from '@keel/auth';
import { writeError } from '../endpoints/respond.js';
import { context } from './context.js';

/**
 * Switches the request to the identity its Impersonate-* headers ask for, once the authorizer
 * allows the authenticated user to impersonate each part of it; otherwise a 403 naming the first
 * part refused. The authenticated user stays in the context for the audit, and the headers are
 * removed so nothing further down acts on them again.
 */
export function withImpersonation(authorizer: Authorizer): RequestHandler {
  return function impersonationFilter(req, res, next) {
    const requests = impersonationRequests(req);
    if (requests instanceof Error) {
      writeError(req, res, requests);
      return;
    }
    if (requests.length === 0) {
      next();
      return;
    }
    const ctx = context(res);
    const requestor = ctx.user;
    if (!requestor) {
      next(new Error('impersonation ran before authentication'));
      return;
    }
    impersonate(requestor, requests, authorizer).then(
      (outcome) => {
        if ('error' in outcome) {
          writeError(req, res, outcome.error);
          return;
        }
        ctx.originalUser = requestor;
        ctx.user = outcome.user;
        stripImpersonationHeaders(req);
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
