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
