import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from '@keel/auth';
import type { Logger } from '@keel/log';
import type { GenericStore } from '../../registry/generic-store.js';
import type { InternalObject, ResourceView } from '../../registry/resource-view.js';
import type { WatchEventMetrics } from '../../metrics/watch-metrics.js';
import type { RequestInfo } from '../request-info.js';
import { RESOURCE, type Restrictions } from '../media-options.js';
import { checkAcceptable } from '../negotiate.js';
import { protobufLoading, writeError } from '../respond.js';

/** What every handler of one resource view shares; handlers themselves hold no state. */
export interface RequestScope<I extends InternalObject = InternalObject> {
  readonly store: GenericStore<I>;
  readonly view: ResourceView<I>;
  readonly logger: Logger;
  /** 413 above this many body bytes. */
  readonly maxRequestBodyBytes: number;
  /** Watches without timeoutSeconds end after a random time in [min, 2*min). */
  readonly minRequestTimeoutSeconds: number;
  /** --max-connection-bytes-per-sec: watches on one connection send at most this much a second; 0: no limit. */
  readonly maxConnectionBytesPerSec: number;
  readonly deleteCollectionWorkers: number;
  /** The WatchList feature gate: watches may ask for sendInitialEvents, and from "" or "0" get them. */
  readonly watchListEnabled: boolean;
  /** Where watches count the events they send, per resource. */
  readonly watchEvents: WatchEventMetrics;
  /** Registers a long-running response so shutdown ends it cleanly. */
  trackLongRunning(res: ServerResponse, stop: () => void): void;
}

/** The request as a handler sees it: the parsed URL and what request-info decoded. */
export interface HandlerRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly info: RequestInfo;
  /** Who asks (authentication's result, after impersonation). */
  readonly user: UserInfo;
}

export type Handler = (scope: RequestScope, r: HandlerRequest) => Promise<void>;

/**
 * Runs a handler; every failure ends in one Status response (kube's scope.err). The response's
 * encoding is negotiated first, as the real server does: a request that accepts nothing served
 * is a 406 with no effect, and a protobuf client waits here for the codec to load.
 * `restrictions` are the route's (NO_TABLES where its storage prints no Table).
 */
export async function serve(
  scope: RequestScope,
  r: HandlerRequest,
  handler: Handler,
  restrictions: Restrictions = RESOURCE,
): Promise<void> {
  try {
    checkAcceptable(r.req, restrictions);
    const loading = protobufLoading(r.req);
    if (loading) await loading;
    await handler(scope, r);
  } catch (err) {
    writeError(r.req, r.res, err, scope.logger);
  }
}
