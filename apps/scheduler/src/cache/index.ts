export { SchedulerCache } from './cache.js';
export type { Snapshot } from './snapshot.js';
