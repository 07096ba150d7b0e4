import { ALL_ALPHA, ALL_BETA, type FeatureSpec } from './known-features.js';

export type FeatureSpecs<F extends string> = Readonly<Record<F, FeatureSpec>>;

/** Problems with a `name=bool` map, in the real daemons' words, plus the notices they log. */
export function checkOverrides<F extends string>(
  specs: FeatureSpecs<F>,
  overrides: ReadonlyMap<string, boolean>,
): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const [name, value] of overrides) {
    const spec = lookup(specs, name);
    if (spec === undefined) {
      errors.push(`unrecognized feature gate: ${name}`);
      continue;
    }
    if (spec.lockToDefault === true && spec.default !== value) {
      errors.push(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
      continue;
    }
    if (spec.preRelease === 'DEPRECATED') {
      warnings.push(
        `Setting deprecated feature gate ${name}=${value}. It will be removed in a future release.`,
      );
    } else if (spec.preRelease === 'GA') {
      warnings.push(`Setting GA feature gate ${name}=${value}. It will be removed in a future release.`);
    }
  }
  return { errors, warnings };
}

function lookup<F extends string>(specs: FeatureSpecs<F>, name: string): FeatureSpec | undefined {
  return Object.hasOwn(specs, name) ? specs[name as F] : undefined;
}

/**
 * The effective value of every known gate: the user's value where given, else AllAlpha/AllBeta
 * for gates of that stage when those were given, else the gate's default. Immutable once built.
 */
export class FeatureGates<F extends string = string> {
  private readonly values: ReadonlyMap<F, boolean>;

  /** Overrides must have passed `checkOverrides`; unknown or locked ones are ignored here. */
  constructor(specs: FeatureSpecs<F>, overrides: ReadonlyMap<string, boolean> = new Map()) {
    const allAlpha = overrides.get(ALL_ALPHA);
    const allBeta = overrides.get(ALL_BETA);
    const values = new Map<F, boolean>();
    for (const name of Object.keys(specs) as F[]) {
      const spec = specs[name];
      const given = overrides.get(name);
      if (spec.lockToDefault === true) values.set(name, spec.default);
      else if (given !== undefined) values.set(name, given);
      else if (spec.preRelease === 'ALPHA' && allAlpha !== undefined) values.set(name, allAlpha);
      else if (spec.preRelease === 'BETA' && allBeta !== undefined) values.set(name, allBeta);
      else values.set(name, spec.default);
    }
    this.values = values;
  }

  /** Whether a gate is on. Asking about a gate that was never registered is a programming error. */
  enabled(name: F): boolean {
    const v = this.values.get(name);
    if (v === undefined) throw new Error(`feature ${JSON.stringify(name)} is not registered in FeatureGate`);
    return v;
  }

  /** Every gate and its effective value, sorted by name, for logging the effective configuration. */
  toMap(): ReadonlyMap<F, boolean> {
    return new Map([...this.values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

/** The `Options are:` lines of --feature-gates help: gates a user may still flip, sorted. */
export function describeKnownFeatures<F extends string>(specs: FeatureSpecs<F>): string[] {
  return (Object.entries(specs) as [F, FeatureSpec][])
    .filter(([, s]) => s.preRelease !== 'GA' && s.preRelease !== 'DEPRECATED')
    .map(([name, s]) => `${name}=true|false (${s.preRelease} - default=${s.default})`)
    .sort();
}
