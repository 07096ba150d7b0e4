import type { RequestHandler } from 'express';
import { dumpPriorityLevels, dumpQueues, dumpRequests, type FlowController } from '@keel/flowcontrol';
import { context } from '../filters/context.js';

const PREFIX = '/debug/api_priority_and_fairness/';

/**
 * upstream's /debug/api_priority_and_fairness/dump_{priority_levels,queues,requests}: text tables
 * of the controller's state, served (like /metrics) once the chain authorized the non-resource
 * path, and only while priority and fairness runs. Any method is answered, as upstream's mux does.
 */
export function flowControlDebugHandler(controller: FlowController): RequestHandler {
  return function flowControlDebug(_req, res, next) {
    const { info, url } = context(res);
    if (info.isResourceRequest || !info.path.startsWith(PREFIX)) {
      next();
      return;
    }
    let text: string;
    switch (info.path.slice(PREFIX.length)) {
      case 'dump_priority_levels':
        text = dumpPriorityLevels(controller.dump());
        break;
      case 'dump_queues':
        text = dumpQueues(controller.dump());
        break;
      case 'dump_requests':
        text = dumpRequests(controller.dump(), (url.searchParams.get('includeRequestDetails') ?? '') !== '');
        break;
      default:
        next();
        return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
    res.end(text);
  };
}
