import type { RequestHandler } from 'express';

/**
 * The place of auditing in the chain: after authentication (the event names the user), before
 * authorization (denied requests are audited too). Audit policy and sinks fill it in later;
 * until then it passes every request through.
 */
export function withAudit(): RequestHandler {
  return function auditFilter(_req, _res, next) {
    next();
  };
}
