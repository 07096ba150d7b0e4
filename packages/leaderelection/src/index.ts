export {
  JITTER_FACTOR,
  LEADER_ELECTION_FLAGS,
  LeaderElectionOptions,
  RESOURCE_LOCK_TYPES,
  leaderElectionFlagNamer,
  validateLeaderElection,
  type LeaderElectionConfig,
  type LeaderElectionField,
  type LeaderElectionFieldNamer,
  type ResourceLockType,
} from './options.js';
export {
  collectionPath,
  errorReason,
  isAlreadyExistsError,
  isConflictError,
  isNotFoundError,
  objectPath,
  type KubeObject,
  type ObjectClient,
  type ObjectLocation,
  type ObjectMetadata,
  type RequestOptions,
} from './object-client.js';
export {
  LEADER_ANNOTATION,
  UNKNOWN_LEADER,
  microTimeString,
  recordFromAnnotation,
  recordFromLeaseSpec,
  recordToAnnotation,
  recordToLeaseSpec,
  type LeaderElectionRecord,
} from './record.js';
export {
  LEADER_ELECTION_EVENT_REASON,
  type EventRecorder,
  type EventSubject,
  type Lock,
  type LockConfig,
  type LockGetResult,
} from './lock.js';
export { LeaseLock } from './lease-lock.js';
export { ConfigMapLock, EndpointsLock } from './annotation-lock.js';
export { ConfigMapLeaseLock, EndpointsLeaseLock, MultiLock } from './multi-lock.js';
export { defaultIdentity, newLock } from './new-lock.js';
export { LeaderElector } from './elector.js';
export {
  systemClock,
  type Clock,
  type LeaderCallbacks,
  type LeaderElectorConfig,
  type RunResult,
} from './elector-config.js';
export { leaderElectionCheck, type LeaderElectionHealthChecker } from './healthz.js';
export { MemoryObjectClient } from './memory-object-client.js';
