import type { ErrorRequestHandler } from 'express';
import type { Logger } from '@keel/log';
import { writeError } from '../endpoints/respond.js';
import { auditOf } from './audit.js';

/**
 * The outermost safety net: anything a filter or handler throws becomes a 500 Status (its cause
 * goes to the log, never to the client) and the server keeps serving. Should writing the Status
 * fail as well, a plain 500 goes out: nothing may fall through to Express's own error page,
 * which shows the stack trace outside production mode.
 */
export function withRecovery(logger: Logger): ErrorRequestHandler {
  return function recoveryFilter(err: unknown, req, res, _next) {
    logger.error('Recovered from a failure while serving a request', {
      method: req.method,
      path: req.originalUrl,
      err,
    });
    // The audit's Panic stage stands in for ResponseComplete, as in kube.
    void auditOf(req)?.panic(err);
    try {
      writeError(req, res, err, undefined);
    } catch (writeErr) {
      logger.error('Writing the error response failed', { err: writeErr });
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end('Internal Server Error\n');
    }
  };
}
