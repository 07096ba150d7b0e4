import { ALL_ALPHA, ALL_BETA, type FeatureSpec, type PreRelease } from './known-features.js';

export type FeatureSpecs<F extends string> = Readonly<Record<F, FeatureSpec>>;

/** The reason a gate only has its default value in Keel, or undefined when both values are possible. */
function fixedReason(spec: FeatureSpec): string | undefined {
  return spec.keel !== undefined && 'fixed' in spec.keel ? spec.keel.fixed : undefined;
}

/** The stage AllAlpha / AllBeta switch, or undefined for any other gate. */
function switchedStage(name: string): PreRelease | undefined {
  return name === ALL_ALPHA ? 'ALPHA' : name === ALL_BETA ? 'BETA' : undefined;
}

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
    const fixed = fixedReason(spec);
    if (fixed !== undefined && spec.default !== value) {
      errors.push(`cannot set feature gate ${name} to ${value}: Keel ${fixed}`);
      continue;
    }
    const stage = switchedStage(name);
    if (stage !== undefined) {
      // AllAlpha/AllBeta would flip every unnamed gate of the stage, fixed ones included; leaving
      // those at Keel's value instead would quietly ignore part of what was asked for.
      const blocked = Object.entries<FeatureSpec>(specs)
        .filter(([, s]) => s.preRelease === stage && fixedReason(s) !== undefined && s.default !== value)
        .filter(([n]) => !overrides.has(n))
        .map(([n]) => n)
        .sort();
      if (blocked.length > 0) {
        errors.push(
          `cannot set feature gate ${name} to ${value}: Keel fixes ${blocked.join(', ')} to ${!value}; ` +
            `set ${blocked.length === 1 ? 'it' : 'them'} to ${!value} as well to switch the other ${stage.toLowerCase()} gates`,
        );
        continue;
      }
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

  /** Overrides must have passed `checkOverrides`; unknown ones are ignored, locked and fixed gates keep their default. */
  constructor(specs: FeatureSpecs<F>, overrides: ReadonlyMap<string, boolean> = new Map()) {
    const allAlpha = overrides.get(ALL_ALPHA);
    const allBeta = overrides.get(ALL_BETA);
    const values = new Map<F, boolean>();
    for (const name of Object.keys(specs) as F[]) {
      const spec = specs[name];
      const given = overrides.get(name);
      if (spec.lockToDefault === true || fixedReason(spec) !== undefined) values.set(name, spec.default);
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

/**
 * The `Options are:` lines of --feature-gates help: the gates the real daemons still let a user
 * flip, sorted. A gate fixed in Keel is listed with the one value Keel takes, not `true|false`,
 * and with why: leaving it out would hide that Keel's default differs from the real daemons'.
 * A meaningless gate keeps both values and says it changes nothing.
 */
export function describeKnownFeatures<F extends string>(specs: FeatureSpecs<F>): string[] {
  return (Object.entries(specs) as [F, FeatureSpec][])
    .filter(([, s]) => s.preRelease !== 'GA' && s.preRelease !== 'DEPRECATED')
    .map(([name, s]) => {
      if (s.keel === undefined) return `${name}=true|false (${s.preRelease} - default=${s.default})`;
      if ('fixed' in s.keel) return `${name}=${s.default} (${s.preRelease} - fixed: Keel ${s.keel.fixed})`;
      return `${name}=true|false (${s.preRelease} - default=${s.default}, meaningless: Keel ${s.keel.meaningless})`;
    })
    .sort();
}
