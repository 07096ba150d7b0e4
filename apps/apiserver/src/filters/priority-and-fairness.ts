import type { NextFunction, RequestHandler, Response } from 'express';
import type {
  FlowCallbacks,
  FlowController,
  RejectReason,
  RequestDetails,
  RequestHandle,
} from '@keel/flowcontrol';
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
      user: ctx.user ?? NO_USER,
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
    const request = new FilteredRequest(res, next, counts, READ_ONLY_VERBS.has(info.verb));
    request.handle = controller.handle(
      c,
      request,
      digest,
      estimateWork && !c.exempt ? estimateWork(info, ctx.url, controller.maxSeats(c)) : 1,
    );
    if (!request.settled) request.startWaiting(maxWaitMs);
  };
}

const NO_USER = { name: '', groups: [] };

/**
 * One request's callbacks from the controller, with what the filter counts of it: one object per
 * request rather than a closure per step.
 */
class FilteredRequest implements FlowCallbacks {
  handle: RequestHandle | undefined;
  settled = false;
  private waiting = false;
  private timer: NodeJS.Timeout | undefined;
  /** The listener that takes a waiting request out of its queue when the client goes away. */
  private gone: (() => void) | undefined;

  constructor(
    private readonly res: Response,
    private readonly next: NextFunction,
    private readonly counts: InFlightRequests,
    private readonly readOnly: boolean,
  ) {}

  startWaiting(maxWaitMs: number): void {
    this.waiting = true;
    if (this.readOnly) this.counts.readOnlyWaiting++;
    else this.counts.mutatingWaiting++;
    this.timer = setTimeout(() => void this.handle?.cancel('time-out'), maxWaitMs);
    this.gone = () => void this.handle?.cancel('cancelled');
    this.res.once('close', this.gone);
  }

  execute(done: () => void): void {
    this.stopWaiting();
    const counts = this.counts;
    const readOnly = this.readOnly;
    if (readOnly) counts.readOnly++;
    else counts.mutating++;
    this.res.once('close', () => {
      if (readOnly) counts.readOnly--;
      else counts.mutating--;
      done();
    });
    this.next();
  }

  reject(reason: RejectReason): void {
    this.stopWaiting();
    if (reason !== 'cancelled' && !this.res.headersSent) tooManyRequests(this.res);
  }

  private stopWaiting(): void {
    this.settled = true;
    if (!this.waiting) return;
    this.waiting = false;
    clearTimeout(this.timer);
    if (this.gone) this.res.off('close', this.gone);
    if (this.readOnly) this.counts.readOnlyWaiting--;
    else this.counts.mutatingWaiting--;
  }
}
