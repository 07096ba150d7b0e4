import { flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';
import { checkOverrides, describeKnownFeatures, FeatureGates, type FeatureSpecs } from './feature-gates.js';
import { keelFeatures, type KnownFeature } from './known-features.js';

/** --feature-gates, shared by both daemons (component-base featuregate). */
export class FeatureOptions<F extends string = KnownFeature> implements OptionsGroup<{
  featureGates?: FeatureGates<F>;
}> {
  featureGates: ReadonlyMap<string, boolean> = new Map();

  private readonly specs: FeatureSpecs<F>;

  /** `specs` defaults to Keel's registry; tests and tools may pass their own. */
  constructor(specs?: FeatureSpecs<F>) {
    // Without an argument F is KnownFeature, which is exactly keelFeatures' key set.
    this.specs = specs ?? (keelFeatures as unknown as FeatureSpecs<F>);
  }

  addFlags(fss: NamedFlagSets): void {
    fss.section('Features').var(this, 'featureGates', {
      name: 'feature-gates',
      type: t.mapStringBool,
      usage:
        'A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n' +
        describeKnownFeatures(this.specs).join('\n'),
    });
  }

  validate(): string[] {
    return checkOverrides(this.specs, this.featureGates).errors;
  }

  /** Notices for gates that are GA or deprecated but were set anyway; print them, do not fail. */
  warnings(): string[] {
    return checkOverrides(this.specs, this.featureGates).warnings;
  }

  applyTo(config: { featureGates?: FeatureGates<F> }): void {
    config.featureGates = new FeatureGates(this.specs, this.featureGates);
  }
}
