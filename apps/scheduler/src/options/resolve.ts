import type { Duration, NamedFlagSets } from '@keel/flags';
import {
  LEADER_ELECTION_FLAGS,
  type LeaderElectionConfig,
  type LeaderElectionField,
} from '@keel/leaderelection';
import { defaultSchedulerConfiguration } from './config-defaults.js';
import { readSchedulerConfigFile } from './config-file.js';
import { validateSchedulerConfiguration } from './config-rules.js';
import type { SchedulerConfiguration } from './config-types.js';
import { DeprecatedSchedulerOptions } from './deprecated-options.js';
import type { SchedulerOptions } from './scheduler-options.js';

/** What the scheduler runs with: the effective configuration plus the settings that live only in flags. */
export interface SchedulerSettings {
  readonly configuration: SchedulerConfiguration;
  /** `--config`, '' when the configuration came from flags. */
  readonly configFile: string;
  /** `--write-config-to`: when set, write `configuration` there and exit 0. */
  readonly writeConfigTo: string;
  /** `--master`: overrides the server of the connection-config file when set. */
  readonly master: string;
  /** Not part of the file format, so the flag applies with or without `--config` (as in kube). */
  readonly podMaxInUnschedulablePodsDuration: Duration;
  readonly cloudvendorContainerRegistryConfig: string;
}

export type ResolveResult =
  | { readonly scheduler: SchedulerSettings; readonly warnings: string[]; readonly errors?: undefined }
  | { readonly scheduler?: undefined; readonly warnings: string[]; readonly errors: string[] };

/** kube's ApplyLeaderElectionTo: only the `--leader-elect*` flags the user set override `base`. */
function applyLeaderElectionFlags(
  base: LeaderElectionConfig,
  options: SchedulerOptions,
  fss: NamedFlagSets,
): LeaderElectionConfig {
  const flags = options.leaderElection.toConfig();
  const pick = <K extends LeaderElectionField>(f: K): LeaderElectionConfig[K] =>
    fss.changed(LEADER_ELECTION_FLAGS[f]) ? flags[f] : base[f];
  return {
    leaderElect: pick('leaderElect'),
    leaseDuration: pick('leaseDuration'),
    renewDeadline: pick('renewDeadline'),
    retryPeriod: pick('retryPeriod'),
    resourceLock: pick('resourceLock'),
    resourceName: pick('resourceName'),
    resourceNamespace: pick('resourceNamespace'),
  };
}

/** kube's ApplyDeprecated: the deprecated flags the user set, copied into a flag-built configuration. */
function applyDeprecatedFlags(
  base: SchedulerConfiguration,
  d: DeprecatedSchedulerOptions,
  fss: NamedFlagSets,
): SchedulerConfiguration {
  const set = <T>(flag: string, value: T, fallback: T): T => (fss.changed(flag) ? value : fallback);
  const cc = base.clientConnection;
  const le = base.leaderElection;
  return {
    ...base,
    enableProfiling: set('profiling', d.profiling, base.enableProfiling),
    enableContentionProfiling: set(
      'contention-profiling',
      d.contentionProfiling,
      base.enableContentionProfiling,
    ),
    clientConnection: {
      kubeconfig: set('connection-config', d.connectionConfig, cc.kubeconfig),
      acceptContentTypes: cc.acceptContentTypes,
      contentType: set('platform-api-content-type', d.platformApiContentType, cc.contentType),
      qps: set('platform-api-qps', d.platformApiQps, cc.qps),
      burst: set('platform-api-burst', d.platformApiBurst, cc.burst),
    },
    leaderElection: {
      ...le,
      resourceName: set('lock-object-name', d.lockObjectName, le.resourceName),
      resourceNamespace: set('lock-object-namespace', d.lockObjectNamespace, le.resourceNamespace),
    },
  };
}

function fromFile(
  options: SchedulerOptions,
  fss: NamedFlagSets,
): { config?: SchedulerConfiguration; errors: string[]; warnings: string[] } {
  const warnings = DeprecatedSchedulerOptions.flagNames
    .filter((name) => fss.changed(name))
    .map((name) => `--${name} is deprecated and ignored because --config is given`);
  const file = readSchedulerConfigFile(options.config);
  if (file.errors) return { errors: file.errors, warnings };
  const config = {
    ...file.config,
    leaderElection: applyLeaderElectionFlags(file.config.leaderElection, options, fss),
  };
  // A value the command line overrode is named by its flag, the others by their place in the file.
  const namer = (f: LeaderElectionField) =>
    fss.changed(LEADER_ELECTION_FLAGS[f]) ? `--${LEADER_ELECTION_FLAGS[f]}` : `leaderElection.${f}`;
  const errors = validateSchedulerConfiguration(config, namer).map((e) => `${options.config}: ${e}`);
  return { config, errors, warnings: [...warnings, ...file.warnings] };
}

function fromFlags(
  options: SchedulerOptions,
  fss: NamedFlagSets,
): { config: SchedulerConfiguration; errors: string[]; warnings: string[] } {
  const deprecated = applyDeprecatedFlags(defaultSchedulerConfiguration(), options.deprecated, fss);
  // Applied after the deprecated lock-object flags, so the new flags win when both are given.
  const config = {
    ...deprecated,
    leaderElection: applyLeaderElectionFlags(deprecated.leaderElection, options, fss),
  };
  const lockFlags: Partial<Record<LeaderElectionField, string>> = {
    resourceName: 'lock-object-name',
    resourceNamespace: 'lock-object-namespace',
  };
  const namer = (f: LeaderElectionField) => {
    const old = lockFlags[f];
    return `--${!fss.changed(LEADER_ELECTION_FLAGS[f]) && old !== undefined && fss.changed(old) ? old : LEADER_ELECTION_FLAGS[f]}`;
  };
  return { config, errors: validateSchedulerConfiguration(config, namer), warnings: [] };
}

/**
 * Builds the effective configuration as kube-scheduler does. With `--config`, the file is the
 * configuration, the deprecated flags are ignored (one warning each) and only the `--leader-elect*`
 * flags set on the command line override it. Without it, the defaults are used with the deprecated
 * flags and the leader election flags applied. Call after the options' `validate()` passed.
 * Never throws.
 */
export function resolveSchedulerConfiguration(options: SchedulerOptions, fss: NamedFlagSets): ResolveResult {
  const { config, errors, warnings } =
    options.config !== '' ? fromFile(options, fss) : fromFlags(options, fss);
  if (config === undefined || errors.length > 0) return { errors, warnings };
  return {
    warnings,
    scheduler: {
      configuration: config,
      configFile: options.config,
      writeConfigTo: options.writeConfigTo,
      master: options.master,
      podMaxInUnschedulablePodsDuration: options.podMaxInUnschedulablePodsDuration,
      cloudvendorContainerRegistryConfig: options.cloudvendorContainerRegistryConfig,
    },
  };
}
