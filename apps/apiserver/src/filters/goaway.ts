import type { RequestHandler } from 'express';
import { context } from './context.js';

/**
 * --goaway-chance. kube's filter sets `Connection: close` on a random fraction of HTTP/2
 * requests, which Go's HTTP/2 server turns into a GOAWAY: the client finishes what is in flight
 * and dials again, through the load balancer, so long-lived clients do not all stay on the server
 * they first reached. The serving layer does the same with the header on an HTTP/2 stream
 * (@keel/serving adaptHttp2Exchange). HTTP/1.1 requests are drawn too (kube draws only HTTP/2
 * ones): there the header has the same effect on its own, the response is written as usual, then
 * the server closes the connection and the client's next request opens a new one.
 *
 * Long-running requests are never drawn: the close would only happen when the watch ends, maybe
 * many minutes later, and the connection carries nothing else meanwhile, so it would move no load.
 *
 * `random` is Math.random but for unit tests, which need the draw to be predictable.
 */
export function withProbabilisticGoaway(chance: number, random: () => number = Math.random): RequestHandler {
  return function goawayFilter(_req, res, next) {
    if (!context(res).longRunning && random() < chance) res.setHeader('Connection', 'close');
    next();
  };
}
