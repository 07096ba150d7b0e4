export { newEventHandlers, nodeSchedulingPropertiesChanged, type EventHandlers } from './event-handlers.js';
export { Diagnosis, FitError, NO_NODES_AVAILABLE, fitErrorMessage } from './fit-error.js';
export { isAssigned, isTerminal, isTerminating, responsibleForPod, schedulerNameOf } from './pod-filters.js';
export {
  PodScheduler,
  numFeasibleNodesToFind,
  selectHost,
  type PodSchedulerOptions,
  type ScheduleOutcome,
  type ScheduleResult,
} from './schedule-one.js';
export {
  runBindPlugins,
  runSchedulerLoop,
  scheduleOne,
  type FailureReason,
  type SchedulerLoopDeps,
} from './scheduler-loop.js';
