export { FakeClock, realTimeout, systemClock, type CancelTimer, type Clock } from './clock.js';
export { backoffDuration } from './backoff-queue.js';
export { PriorityQueue } from './priority-queue.js';
export {
  ASSIGNED_POD_DELETE,
  NODE_ADD,
  NODE_UPDATE,
  QUEUE_DEFAULTS,
  UNSCHEDULABLE_TIMEOUT,
  type ClusterEvent,
  type PriorityQueueOptions,
  type QueueName,
  type SchedulingQueue,
} from './scheduling-queue.js';
