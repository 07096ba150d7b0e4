import type { RequestHandler } from 'express';
import { startRequestSpan } from '@keel/tracing';
import type { RequestInfo } from '../endpoints/request-info.js';
import { context } from './context.js';

/** Callers whose trace context the server joins (upstream's non-public endpoint groups). */
const TRUSTED_GROUPS = new Set(['system:masters', 'system:monitoring']);

/**
 * Upstream's span name: the method and the path with names and namespaces as placeholders, so
 * spans of one kind of request group together; a request for no resource is named by its method.
 */
export function spanName(info: RequestInfo, method: string): string {
  if (!info.isResourceRequest) return method;
  let path = `/${info.apiPrefix}`;
  if (info.apiGroup !== '') path += `/${info.apiGroup}`;
  path += `/${info.apiVersion}`;
  if (info.namespace !== '') path += '/namespaces/{:namespace}';
  path += `/${info.resource}`;
  if (info.name !== '') path += '/{:name}';
  if (info.subresource !== '') path += `/${info.subresource}`;
  return `${method} ${path}`;
}

/**
 * --tracing-config-file: one server span per request, from here to the response's end, with the
 * rest of the chain and the handlers running inside it so that admission and store spans nest
 * under it. After authentication, as upstream, because whether the caller's own trace context is
 * joined depends on who the caller is.
 */
export function withTracing(): RequestHandler {
  return function tracingFilter(req, res, next) {
    const ctx = context(res);
    const trusted = ctx.user?.groups.some((g) => TRUSTED_GROUPS.has(g)) ?? false;
    const { span, run } = startRequestSpan(spanName(ctx.info, req.method), req.headers, trusted, {
      'http.method': req.method,
      'http.target': req.url,
      'audit-id': ctx.auditID,
    });
    res.once('close', () => {
      span.setAttribute('http.status_code', res.statusCode);
      span.end();
    });
    run(() => next());
  };
}
