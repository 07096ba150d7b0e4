import type { ErrorRequestHandler } from 'express';
import type { Logger } from '@keel/log';
import { writeError } from '../endpoints/respond.js';

/**
 * The outermost safety net: anything a filter or handler throws becomes a 500 Status (its cause
 * goes to the log, never to the client) and the server keeps serving.
 */
export function withRecovery(logger: Logger): ErrorRequestHandler {
  return function recoveryFilter(err: unknown, req, res, _next) {
    logger.error('Recovered from a failure while serving a request', {
      method: req.method,
      path: req.path,
      err,
    });
    writeError(req, res, err, undefined);
  };
}
