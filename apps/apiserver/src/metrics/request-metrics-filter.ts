import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { Labels } from '@keel/metrics';
import type { RequestInfo } from '../endpoints/request-info.js';
import { context } from '../filters/context.js';
import type { ApiServerMetrics, RequestLabel } from './apiserver-metrics.js';

/**
 * The verb label as kube-apiserver reports it (its cleanVerb): the HTTP method, except LIST for
 * a collection read, WATCH for watches and APPLY for server-side apply patches.
 */
function reportedVerb(req: IncomingMessage, info: RequestInfo): string {
  if (info.verb === 'watch') return 'WATCH';
  if (info.verb === 'list') return 'LIST';
  const method = (req.method ?? 'GET').toUpperCase();
  if (method === 'PATCH' && (req.headers['content-type'] ?? '').startsWith('application/apply-patch+yaml'))
    return 'APPLY';
  return method;
}

function scopeOf(info: RequestInfo): string {
  if (!info.isResourceRequest) return '';
  if (info.name !== '') return 'resource';
  return info.namespace !== '' ? 'namespace' : 'cluster';
}

/** `?dryRun=All` as the label reports it: the values, sorted and deduplicated. */
function dryRunOf(url: URL): string {
  if (url.search === '') return '';
  return [...new Set(url.searchParams.getAll('dryRun'))].sort().join(',');
}

/**
 * Counts every request by its labels and code, times the ones that end (long-running requests
 * are counted in apiserver_longrunning_requests while they run instead), right after request
 * info so refusals by any later filter (401, 403, 429, 504) are counted too.
 */
export function withRequestMetrics(metrics: ApiServerMetrics): RequestHandler {
  return function requestMetricsFilter(req, res, next) {
    const ctx = context(res);
    const { info, url } = ctx;
    const labels: Labels<RequestLabel> = {
      verb: reportedVerb(req, info),
      dry_run: dryRunOf(url),
      group: info.apiGroup,
      version: info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      scope: scopeOf(info),
      component: 'apiserver',
    };
    const started = process.hrtime.bigint();
    const longRunning = ctx.longRunning;
    if (longRunning) metrics.longRunning.inc(labels);
    res.once('close', () => {
      if (longRunning) metrics.longRunning.dec(labels);
      else metrics.requestDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      metrics.requests.inc({ ...labels, code: String(res.statusCode) });
    });
    next();
  };
}
