import type { RequestHandler } from 'express';
import { context } from '../filters/context.js';
import type { ApiServerMetrics } from './apiserver-metrics.js';

/** GET /metrics: the Prometheus text format (authorization already allowed the non-resource path). */
export function metricsHandler(metrics: ApiServerMetrics): RequestHandler {
  return function metrics_(req, res, next) {
    const { info } = context(res);
    if (
      info.isResourceRequest ||
      info.path !== '/metrics' ||
      (req.method !== 'GET' && req.method !== 'HEAD')
    ) {
      next();
      return;
    }
    metrics.registry.render().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => next(err),
    );
  };
}
