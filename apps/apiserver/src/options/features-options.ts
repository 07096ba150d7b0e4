import { flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';

/** Server features switched by plain booleans (kube-apiserver's "Features flags"). */
export interface FeaturesConfig {
  readonly profiling: boolean;
  /** Lock-contention profiling; only ever true when profiling is on. */
  readonly contentionProfiling: boolean;
  readonly enablePriorityAndFairness: boolean;
}

export class FeatureOptions implements OptionsGroup<{ features?: FeaturesConfig }> {
  profiling = true;
  contentionProfiling = false;
  enablePriorityAndFairness = true;

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Features');
    s.var(this, 'contentionProfiling', {
      name: 'contention-profiling',
      type: t.bool,
      usage: 'Enable block profiling, if profiling is enabled.',
    });
    s.var(this, 'enablePriorityAndFairness', {
      name: 'enable-priority-and-fairness',
      type: t.bool,
      usage:
        'If true, replace the max-in-flight handler with an enhanced one that queues and dispatches with priority and fairness',
    });
    s.var(this, 'profiling', {
      name: 'profiling',
      type: t.bool,
      usage: 'Enable profiling via web interface host:port/debug/pprof/.',
    });
  }

  validate(): string[] {
    return [];
  }

  applyTo(config: { features?: FeaturesConfig }): void {
    config.features = {
      profiling: this.profiling,
      contentionProfiling: this.profiling && this.contentionProfiling,
      enablePriorityAndFairness: this.enablePriorityAndFairness,
    };
  }
}
