import type { RequestHandler } from 'express';
import { timeout } from '@keel/apimachinery';
import { writeError } from '../endpoints/respond.js';
import { context } from './context.js';

/**
 * --request-timeout for everything but long-running requests: when it fires before the handler
 * answered, the client gets a 504 Status and whatever the handler writes afterwards is dropped
 * (the real server's timeout writer does the same).
 */
export function withTimeout(timeoutMs: number): RequestHandler {
  return function timeoutFilter(req, res, next) {
    if (context(res).longRunning || timeoutMs <= 0) {
      next();
      return;
    }
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      // timeout() adds the "Timeout: " prefix itself.
      writeError(req, res, timeout('request did not complete within the allotted timeout'));
      // Late writes from the handler go nowhere.
      const drop = () => res;
      Object.assign(res, { writeHead: drop, setHeader: drop, write: () => true, end: drop });
    }, timeoutMs);
    // A response emits 'close' once it is done, finished or not: one listener covers both.
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
