import { Duration, flagTypes as t } from '@keel/flags';
import type { NamedFlagSets } from '@keel/flags';
import { LeaderElectionOptions } from '@keel/leaderelection';
import { DeprecatedSchedulerOptions } from './deprecated-options.js';

/**
 * The scheduler's own flags: the configuration file, `--master`, the leader election flags and the
 * deprecated flags. They are resolved together into the effective configuration by
 * `resolveSchedulerConfiguration`, because which of them count depends on whether `--config` is given.
 * Register leader election through this class only: its rules are checked on the merged result.
 */
export class SchedulerOptions {
  config = '';
  writeConfigTo = '';
  master = '';
  podMaxInUnschedulablePodsDuration = Duration.parse('5m');
  cloudvendorContainerRegistryConfig = '';

  readonly leaderElection = new LeaderElectionOptions();
  readonly deprecated = new DeprecatedSchedulerOptions();

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Misc');
    s.var(this, 'config', { name: 'config', type: t.string, usage: 'The path to the configuration file.' });
    s.var(this, 'writeConfigTo', {
      name: 'write-config-to',
      type: t.string,
      usage: 'If set, write the configuration values to this file and exit.',
    });
    s.var(this, 'master', {
      name: 'master',
      type: t.string,
      usage: 'The address of the platform API server (overrides any value in connection-config).',
    });
    s.var(this, 'podMaxInUnschedulablePodsDuration', {
      name: 'pod-max-in-unschedulable-pods-duration',
      type: t.duration,
      usage:
        'The maximum time a pod can stay in unschedulablePods. If a pod stays in unschedulablePods for longer than this value, ' +
        'the pod will be moved from unschedulablePods to backoffQ or activeQ.',
      deprecated: 'will be removed in 1.26',
    });
    s.var(this, 'cloudvendorContainerRegistryConfig', {
      name: 'cloudvendor-container-registry-config',
      type: t.string,
      usage: 'Path to the file containing cloudvendor container registry configuration information.',
    });
    this.leaderElection.addFlags(fss);
    this.deprecated.addFlags(fss);
  }

  /**
   * Problems with the flag values themselves. Leader election and everything a configuration file
   * may also set are checked by `resolveSchedulerConfiguration` on the merged result, which is what
   * the scheduler runs with.
   */
  validate(): string[] {
    const errors: string[] = [];
    if (this.podMaxInUnschedulablePodsDuration.nanoseconds <= 0n) {
      errors.push(
        `--pod-max-in-unschedulable-pods-duration must be greater than 0, got ${this.podMaxInUnschedulablePodsDuration.toString()}`,
      );
    }
    // With --config the deprecated flags are ignored, so their values cannot be wrong.
    if (this.config === '') errors.push(...this.deprecated.validate());
    return errors;
  }
}
