import type { NamedFlagSets } from './flag-set.js';

/**
 * One concern's options (serving, authentication, storage, ...), as the real daemons structure
 * them: the fields hold what the user typed, with the defaults as initialisers.
 *
 * - `addFlags` binds the fields to flags in the concern's own section.
 * - `validate` returns every problem, each naming its flag; it never throws and never mutates.
 * - `applyTo` copies the validated values into the runtime configuration `C`.
 */
export interface OptionsGroup<C> {
  addFlags(fss: NamedFlagSets): void;
  validate(): string[];
  applyTo(config: C): void;
}

/** Fans the three calls out over a list of concerns, so an app's options are a table of contents. */
export function composeOptions<C>(groups: readonly OptionsGroup<C>[]): OptionsGroup<C> {
  return {
    addFlags: (fss) => groups.forEach((g) => g.addFlags(fss)),
    validate: () => groups.flatMap((g) => g.validate()),
    applyTo: (config) => groups.forEach((g) => g.applyTo(config)),
  };
}

/**
 * Runs every group's applyTo into one object and checks that each named slice was filled, so a
 * concern that forgets its slice fails loudly at start-up instead of as undefined at run time.
 */
export function assembleConfig<C extends object>(
  groups: readonly OptionsGroup<Partial<C>>[],
  slices: readonly (keyof C)[],
  seed: Partial<C> = {},
): C {
  const config: Partial<C> = { ...seed };
  for (const g of groups) g.applyTo(config);
  const missing = slices.filter((k) => config[k] === undefined);
  if (missing.length > 0)
    throw new Error(`configuration slices not filled: ${missing.map(String).join(', ')}`);
  return config as C;
}
