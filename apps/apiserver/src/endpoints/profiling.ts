import type { RequestHandler } from 'express';
import { serveProfiling, type ProfilingSettings } from '@keel/profiling';
import { context } from '../filters/context.js';

/** --profiling: /debug/pprof/ once the request passed authentication and authorization. */
export function profilingHandler(settings: ProfilingSettings): RequestHandler {
  return function profiling(req, res, next) {
    const { url, info } = context(res);
    if (info.isResourceRequest || !serveProfiling(req, res, url, settings)) next();
  };
}
