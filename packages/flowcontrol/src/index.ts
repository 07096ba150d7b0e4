/**
 * API Priority and Fairness: the flowcontrol.apiserver.k8s.io types, their served versions and
 * validation, the bootstrap configuration, and the engine (classification, shuffle sharding,
 * fair queuing) the API server's filter runs every request through.
 */
export * from './types.js';
export {
  CATCH_ALL,
  EXEMPT,
  mandatoryFlowSchemas,
  mandatoryPriorityLevelConfigurations,
  suggestedFlowSchemas,
  suggestedPriorityLevelConfigurations,
} from './bootstrap.js';
export { validateFlowSchema, validatePriorityLevelConfiguration } from './validation.js';
export {
  FLOWCONTROL_VERSIONS,
  flowSchemaViews,
  priorityLevelViews,
  type FlowControlVersion,
} from './views.js';
export { byPrecedence, matchesFlowSchema, type RequestDigest } from './match.js';
export { BORROWING_ADJUSTMENT_PERIOD_MS, allocate, SeatDemand, SeatDemandStats } from './borrowing.js';
export { dumpPriorityLevels, dumpQueues, dumpRequests } from './debug.js';
export { dealHand, hashFlow, requiredEntropyBits, MAX_HASH_BITS } from './shuffle-sharding.js';
export {
  QueueSet,
  type QueueDump,
  type QueueSetConfig,
  type QueueSetDump,
  type WaitingDescription,
  type RejectReason,
  type RequestCallbacks,
  type Ticket,
} from './queueset.js';
export {
  FlowController,
  NO_OBSERVER,
  type Classification,
  type FlowCallbacks,
  type FlowObserver,
  type FlowSeries,
  type SeatDemandSummary,
  type PriorityLevelDump,
  type RequestDescription,
  type RequestDetails,
  type RequestHandle,
} from './controller.js';
