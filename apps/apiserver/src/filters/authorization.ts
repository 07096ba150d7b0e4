import type { RequestHandler } from 'express';
import { forbiddenByAuthorizer } from '@keel/apimachinery';
import { DECISION_ANNOTATION, REASON_ANNOTATION } from '@keel/audit';
import type { Authorizer } from '@keel/auth';
import { writeError } from '../endpoints/respond.js';
import { auditOf } from './audit.js';
import { context } from './context.js';

/**
 * Allows or refuses the request: anything but an explicit allow is a 403 Status naming what was
 * refused; an authorizer failure without an allow is the real server's plain-text 500.
 */
export function withAuthorization(authorizer: Authorizer): RequestHandler {
  return function authorizationFilter(req, res, next) {
    const { info, user } = context(res);
    if (!user) {
      next(new Error('authorization ran before authentication'));
      return;
    }
    authorizer.authorize({ ...info, user }).then(
      ({ decision, reason, error }) => {
        // kube's annotations: "allow" or "forbid" with the authorizer's reason; errors say only that.
        const audit = auditOf(req);
        if (decision === 'allow' || error === undefined) {
          audit?.annotate(DECISION_ANNOTATION, decision === 'allow' ? 'allow' : 'forbid');
          audit?.annotate(REASON_ANNOTATION, reason);
        } else {
          audit?.annotate(REASON_ANNOTATION, 'internal error');
        }
        if (decision === 'allow') {
          next();
          return;
        }
        if (error !== undefined) {
          res.writeHead(500, {
            'Content-Type': 'text/plain; charset=utf-8',
            'X-Content-Type-Options': 'nosniff',
          });
          res.end(`Internal Server Error: ${JSON.stringify(req.originalUrl)}: ${error}\n`);
          return;
        }
        writeError(
          req,
          res,
          forbiddenByAuthorizer(
            {
              user: user.name,
              verb: info.verb,
              resourceRequest: info.isResourceRequest,
              path: info.path,
              group: info.apiGroup,
              resource: info.resource,
              subresource: info.subresource,
              namespace: info.namespace,
              name: info.name,
            },
            reason,
          ),
        );
      },
      (err: unknown) => next(err),
    );
  };
}
