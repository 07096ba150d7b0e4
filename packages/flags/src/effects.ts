import type { NamedFlagSets } from './flag-set.js';

/**
 * What a flag does in Keel. Every flag of a daemon has exactly one entry, so no option can be
 * accepted and silently ignored: it acts (and names the tests that show it), or setting it stops
 * start-up, or its help says why it has nothing to act on.
 */
export type FlagEffect =
  /** The value changes behaviour; the named repository-relative test files set the flag and check it. */
  | { readonly acts: readonly string[] }
  /**
   * Keel does not implement it: any value other than the default (or one of `accepts`, values that
   * name what Keel already does) stops start-up with this reason.
   */
  | { readonly refused: string; readonly accepts?: readonly string[] }
  /** Accepted for command-line compatibility; there is nothing in Keel for it to act on, for this reason. */
  | { readonly meaningless: string };

/** A daemon's effects, keyed by long flag name. */
export type FlagEffects = Readonly<Record<string, FlagEffect>>;

export function isRefused(
  e: FlagEffect,
): e is { readonly refused: string; readonly accepts?: readonly string[] } {
  return 'refused' in e;
}
export function isMeaningless(e: FlagEffect): e is { readonly meaningless: string } {
  return 'meaningless' in e;
}

/** The sentence --help and the docs append to a flag's usage, or '' for a flag that acts. */
export function effectNote(e: FlagEffect | undefined): string {
  if (e === undefined || 'acts' in e) return '';
  if (!isRefused(e)) return `Accepted and meaningless in Keel: ${e.meaningless}.`;
  const allowed = e.accepts?.length ? ` or ${e.accepts.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return `Not supported by Keel: any value but the default${allowed} stops start-up (${e.refused}).`;
}

/** The short word the docs table prints in its "In Keel" column. */
export function effectWord(e: FlagEffect | undefined): string {
  if (e === undefined) return '';
  if ('acts' in e) return 'acts';
  return isRefused(e) ? 'refused' : 'not applicable';
}

/**
 * Start-up errors for refused flags the command line set to something other than their default
 * (spelling out a default, as generated command lines often do, is harmless).
 */
export function refusedFlagErrors(fss: NamedFlagSets, effects: FlagEffects): string[] {
  const errors: string[] = [];
  for (const f of fss.all()) {
    const e = effects[f.name];
    if (e === undefined || !isRefused(e) || !f.changed || f.isDefault()) continue;
    if (e.accepts?.includes(f.valueText())) continue;
    errors.push(`--${f.name}=${f.valueText()} is not supported by Keel: ${e.refused}`);
  }
  return errors;
}

/** Problems with the table itself: flags without an entry, entries for flags that do not exist. */
export function effectsTableProblems(fss: NamedFlagSets, effects: FlagEffects): string[] {
  const names = new Set(fss.all().map((f) => f.name));
  const problems: string[] = [];
  for (const n of names) if (!(n in effects)) problems.push(`--${n} has no entry in the effects table`);
  for (const n of Object.keys(effects))
    if (!names.has(n)) problems.push(`effects table names unknown flag --${n}`);
  return problems;
}
