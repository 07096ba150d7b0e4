import { buildInfo, platformVersion } from '@keel/apimachinery';
import {
  DelegatingAuthenticationOptions,
  DelegatingAuthorizationOptions,
  type DelegatingAuthenticationConfig,
  type DelegatingAuthorizationConfig,
} from '@keel/auth';
import { FeatureOptions, type FeatureGates, type KnownFeature } from '@keel/featuregate';
import { assembleConfig, type CommandDefinition, type NamedFlagSets, type OptionsGroup } from '@keel/flags';
import type { Completion } from '@keel/lifecycle';
import { LoggingOptions, type LoggingConfig } from '@keel/log';
import { MetricsOptions, type MetricsConfig } from '@keel/metrics';
import { SecureServingOptions, type SecureServingConfig } from '@keel/serving';
import {
  SchedulerOptions,
  resolveSchedulerConfiguration,
  writeEffectiveConfig,
  type ResolveResult,
  type SchedulerSettings,
} from './options/index.js';
import { schedulerFlagEffects } from './flag-effects.js';

/** The scheduler's runtime configuration: one slice per concern, filled by that concern's options. */
export interface SchedulerConfig {
  readonly secureServing: SecureServingConfig;
  readonly delegatingAuthentication: DelegatingAuthenticationConfig;
  readonly delegatingAuthorization: DelegatingAuthorizationConfig;
  readonly featureGates: FeatureGates<KnownFeature>;
  readonly metrics: MetricsConfig;
  readonly logging: LoggingConfig;
  readonly scheduler: SchedulerSettings;
}

const SLICES = [
  'secureServing',
  'delegatingAuthentication',
  'delegatingAuthorization',
  'featureGates',
  'metrics',
  'logging',
  'scheduler',
] as const satisfies readonly (keyof SchedulerConfig)[];

/** Every option of keel-scheduler, one object per concern (the table of contents of its flags). */
export class SchedulerCommandOptions {
  readonly scheduler = new SchedulerOptions();
  readonly secureServing = new SecureServingOptions({ securePort: 10259, certDir: '', allowZeroPort: true });
  readonly authentication = new DelegatingAuthenticationOptions();
  readonly authorization = new DelegatingAuthorizationOptions();
  readonly features = new FeatureOptions();
  readonly metrics = new MetricsOptions({ platformVersion });
  readonly logging = new LoggingOptions();

  private groups(): OptionsGroup<Partial<SchedulerConfig>>[] {
    return [
      this.secureServing,
      this.authentication,
      this.authorization,
      this.features,
      this.metrics,
      this.logging,
    ];
  }

  addFlags(fss: NamedFlagSets): void {
    // Section order as kube-scheduler prints it.
    for (const title of [
      'Misc',
      'Secure serving',
      'Authentication',
      'Authorization',
      'Deprecated',
      'Leader election',
      'Features',
      'Metrics',
      'Logs',
    ]) {
      fss.section(title);
    }
    this.scheduler.addFlags(fss);
    for (const g of this.groups()) g.addFlags(fss);
  }

  private resolved: ResolveResult | undefined;

  /**
   * Every problem at once: the flags' own rules, then the configuration they resolve to (the
   * `--config` file and the cross-field rules that span file and flags). The resolution is kept
   * for `complete`, so the file is read once.
   */
  validate(fss: NamedFlagSets): string[] {
    this.resolved = resolveSchedulerConfiguration(this.scheduler, fss);
    return [
      ...this.scheduler.validate(),
      ...this.groups().flatMap((g) => g.validate()),
      ...(this.resolved.errors ?? []),
    ];
  }

  /** Builds the configuration from what `validate` resolved; `--write-config-to` ends the process. */
  complete(): Completion<SchedulerConfig> {
    const resolved = this.resolved;
    if (!resolved) throw new Error('complete() called before validate()');
    if (resolved.errors) return { errors: resolved.errors };
    const config = assembleConfig<SchedulerConfig>(this.groups(), SLICES, { scheduler: resolved.scheduler });
    const { scheduler } = config;
    if (scheduler.writeConfigTo !== '') {
      const errors = writeEffectiveConfig(scheduler.writeConfigTo, scheduler.configuration);
      return errors.length > 0 ? { errors } : { exitCode: 0 };
    }
    return {
      config,
      warnings: [...resolved.warnings, ...this.secureServing.warnings(), ...this.features.warnings()],
    };
  }
}

export const schedulerDescription = `The Keel scheduler is a control plane process which assigns pods to nodes. It determines which
nodes are valid placements for each pod in the scheduling queue according to constraints and
available resources, ranks each valid node and binds the pod to a suitable node. Only the leader
of several replicas acts when leader election is on.`;

export function schedulerCommand(options = new SchedulerCommandOptions()): CommandDefinition {
  return {
    name: 'keel-scheduler',
    description: schedulerDescription,
    build: buildInfo(),
    reportedBuild: (gitVersion) => buildInfo(gitVersion),
    addFlags: (fss) => options.addFlags(fss),
    validate: (fss) => options.validate(fss),
    effects: schedulerFlagEffects,
  };
}
