import type { RequestHandler } from 'express';
import type { FlowController, RejectReason, RequestDetails } from '@keel/flowcontrol';
import { context } from './context.js';
import { InFlightRequests, tooManyRequests } from './max-in-flight.js';
import type { WorkEstimator } from './work-estimate.js';

/** upstream's nonMutatingRequestVerbs: every other verb counts as mutating. */
const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);

export const FLOW_SCHEMA_UID_HEADER = 'X-Kubernetes-PF-FlowSchema-UID';
export const PRIORITY_LEVEL_UID_HEADER = 'X-Kubernetes-PF-PriorityLevel-UID';

/**
 * API Priority and Fairness (upstream's WithPriorityAndFairness): every request that is not
 * long-running is classified by the FlowSchemas into a priority level and either executes at once
 * (exempt levels, or a free seat), waits in its flow's queues, or is refused with the same plain
 * 429 as the in-flight limits. The response names the schema and level that decided, by UID. A
 * request waits at most `maxWaitMs` (a quarter of --request-timeout, as upstream); a client that
 * goes away while waiting leaves its queue. `counts` gets the executing and waiting requests by
 * kind, as upstream's filter feeds apiserver_current_inflight_requests in place of the in-flight
 * limits (exempt requests included, since they execute too). `estimateWork` says how many seats a
 * request takes (one when absent).
 */
export function withPriorityAndFairness(
  controller: FlowController,
  maxWaitMs: number,
  counts: InFlightRequests = new InFlightRequests(),
  estimateWork?: WorkEstimator,
): RequestHandler {
  return function priorityAndFairnessFilter(_req, res, next) {
    const ctx = context(res);
    if (ctx.longRunning) {
      next();
      return;
    }
    const { info } = ctx;
    const digest: RequestDetails = {
      user: ctx.user ?? { name: '', groups: [] },
      isResourceRequest: info.isResourceRequest,
      verb: info.verb,
      apiGroup: info.apiGroup,
      resource: info.resource,
      subresource: info.subresource,
      namespace: info.namespace,
      path: info.path,
      name: info.name,
      apiVersion: info.apiVersion,
    };
    const c = controller.classify(digest);
    res.setHeader(FLOW_SCHEMA_UID_HEADER, c.flowSchema.metadata.uid ?? '');
    res.setHeader(PRIORITY_LEVEL_UID_HEADER, c.priorityLevel.metadata.uid ?? '');
    const readOnly = READ_ONLY_VERBS.has(info.verb);
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    let waiting = false;
    const stopWaiting = (): void => {
      settled = true;
      if (timer) clearTimeout(timer);
      res.off('close', onClose);
      if (!waiting) return;
      waiting = false;
      if (readOnly) counts.readOnlyWaiting--;
      else counts.mutatingWaiting--;
    };
    const onClose = (): void => void handle.cancel('cancelled');
    const handle = controller.handle(
      c,
      {
        execute: (done) => {
          stopWaiting();
          if (readOnly) counts.readOnly++;
          else counts.mutating++;
          res.once('close', () => {
            if (readOnly) counts.readOnly--;
            else counts.mutating--;
            done();
          });
          next();
        },
        reject: (reason: RejectReason) => {
          stopWaiting();
          if (reason !== 'cancelled' && !res.headersSent) tooManyRequests(res);
        },
      },
      digest,
      estimateWork && !c.exempt ? estimateWork(info, ctx.url, controller.maxSeats(c)) : 1,
    );
    if (!settled) {
      waiting = true;
      if (readOnly) counts.readOnlyWaiting++;
      else counts.mutatingWaiting++;
      timer = setTimeout(() => handle.cancel('time-out'), maxWaitMs);
      res.once('close', onClose);
    }
  };
}
