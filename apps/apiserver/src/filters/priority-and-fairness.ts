import type { RequestHandler } from 'express';
import type { FlowController, RejectReason, RequestDigest } from '@keel/flowcontrol';
import { context } from './context.js';
import { tooManyRequests } from './max-in-flight.js';

export const FLOW_SCHEMA_UID_HEADER = 'X-Kubernetes-PF-FlowSchema-UID';
export const PRIORITY_LEVEL_UID_HEADER = 'X-Kubernetes-PF-PriorityLevel-UID';

/**
 * API Priority and Fairness (upstream's WithPriorityAndFairness): every request that is not
 * long-running is classified by the FlowSchemas into a priority level and either executes at once
 * (exempt levels, or a free seat), waits in its flow's queues, or is refused with the same plain
 * 429 as the in-flight limits. The response names the schema and level that decided, by UID. A
 * request waits at most `maxWaitMs` (a quarter of --request-timeout, as upstream); a client that
 * goes away while waiting leaves its queue.
 */
export function withPriorityAndFairness(controller: FlowController, maxWaitMs: number): RequestHandler {
  return function priorityAndFairnessFilter(_req, res, next) {
    const ctx = context(res);
    if (ctx.longRunning) {
      next();
      return;
    }
    const { info } = ctx;
    const digest: RequestDigest = {
      user: ctx.user ?? { name: '', groups: [] },
      isResourceRequest: info.isResourceRequest,
      verb: info.verb,
      apiGroup: info.apiGroup,
      resource: info.resource,
      subresource: info.subresource,
      namespace: info.namespace,
      path: info.path,
    };
    const c = controller.classify(digest);
    res.setHeader(FLOW_SCHEMA_UID_HEADER, c.flowSchema.metadata.uid ?? '');
    res.setHeader(PRIORITY_LEVEL_UID_HEADER, c.priorityLevel.metadata.uid ?? '');
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const onClose = (): void => void handle.cancel('cancelled');
    const handle = controller.handle(c, {
      execute: (done) => {
        settled = true;
        if (timer) clearTimeout(timer);
        res.off('close', onClose);
        res.once('close', done);
        next();
      },
      reject: (reason: RejectReason) => {
        settled = true;
        if (timer) clearTimeout(timer);
        res.off('close', onClose);
        if (reason !== 'cancelled' && !res.headersSent) tooManyRequests(res);
      },
    });
    if (!settled) {
      timer = setTimeout(() => handle.cancel('time-out'), maxWaitMs);
      res.once('close', onClose);
    }
  };
}
