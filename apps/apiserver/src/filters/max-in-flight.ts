import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { SYSTEM_PRIVILEGED_GROUP } from '@keel/auth';
import { context } from './context.js';

const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * --max-requests-inflight and --max-mutating-requests-inflight: concurrency caps (0 = no cap),
 * long-running requests exempt. Over the cap the real server answers a plain-text 429 with
 * Retry-After, not a Status, and so does Keel; except to system:masters, who are always served
 * (the real filter's rule: a super-admin or the loopback client must get an answer).
 */
/** The requests holding a slot now (apiserver_current_inflight_requests reads them). */
export class InFlightRequests {
  readOnly = 0;
  mutating = 0;
  /** Requests waiting in priority and fairness queues (apiserver_current_inqueue_requests). */
  readOnlyWaiting = 0;
  mutatingWaiting = 0;
}

/** The real server's refusal of both limiters: plain text, not a Status, with Retry-After. */
export function tooManyRequests(res: ServerResponse): void {
  res.writeHead(429, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Retry-After': '1',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end('Too many requests, please try again later.\n');
}

export function withMaxInFlight(
  maxReadOnly: number,
  maxMutating: number,
  inFlight: InFlightRequests = new InFlightRequests(),
): RequestHandler {
  return function maxInFlightFilter(_req, res, next) {
    const ctx = context(res);
    if (ctx.longRunning) {
      next();
      return;
    }
    const isMutating = MUTATING.has(ctx.info.verb);
    const limit = isMutating ? maxMutating : maxReadOnly;
    const current = isMutating ? inFlight.mutating : inFlight.readOnly;
    if (limit > 0 && current >= limit) {
      if (ctx.user?.groups.includes(SYSTEM_PRIVILEGED_GROUP)) {
        // Served beyond the cap without taking a slot, as in the real filter.
        next();
        return;
      }
      tooManyRequests(res);
      return;
    }
    if (isMutating) inFlight.mutating++;
    else inFlight.readOnly++;
    res.once('close', () => {
      if (isMutating) inFlight.mutating--;
      else inFlight.readOnly--;
    });
    next();
  };
}
