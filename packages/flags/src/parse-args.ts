import yargsParser from 'yargs-parser';
import type { Flag, NamedFlagSets } from './flag-set.js';

export interface ParseResult {
  /** One line per problem, pflag's wording, grouped by flag in the order the flags first appear. */
  readonly errors: string[];
  /** Deprecation notices for flags that were used. */
  readonly warnings: string[];
  /** Arguments that are not flags (the daemons take none). */
  readonly positionals: string[];
}

/**
 * yargs-parser configured to tokenize the way pflag does. Every flag is declared with exactly one
 * argument (`narg: 1`) and no type, so each occurrence comes back as the raw text the user typed,
 * in order, for the flag's own typed parser: no numbers, booleans or quote stripping from yargs.
 */
const PFLAG_RULES: Partial<yargsParser.Configuration> = {
  // pflag has no `--no-x`, no camelCase or dotted aliases: a name is exactly what was declared.
  'boolean-negation': false,
  'camel-case-expansion': false,
  'dot-notation': false,
  // Every occurrence is kept, in order: scalars take the last, lists accumulate (the FlagType decides).
  'duplicate-arguments-array': true,
  'flatten-duplicate-arrays': false,
  'greedy-arrays': false,
  // `--cert-dir --x` gives --cert-dir the value "--x", as pflag does.
  'nargs-eats-options': true,
  'parse-numbers': false,
  'parse-positional-numbers': false,
  'populate--': true,
  'short-option-groups': true,
  'unknown-options-as-args': false,
  'halt-at-non-option': false,
};

/**
 * A flag with a no-option default (booleans, --version): pflag gives a bare `--name` that default
 * and never takes the next argument, and gives `--name=T` the raw "T" (Go's ParseBool). yargs-parser
 * cannot express this: its booleans take a following "true"/"false" and turn any other `=value`
 * into false. So a bare occurrence is spelt out as `--name=default` before yargs-parser sees it;
 * inside a short-option group (`-hv4`) yargs-parser already passes a letter without a value as
 * `true`, which `valuesOf` maps to the default.
 */
function spellOutNoOptDefaults(fss: NamedFlagSets, argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  return argv.map((arg, i) => {
    if (end !== -1 && i >= end) return arg;
    const flag = arg.startsWith('--')
      ? fss.lookup(arg.slice(2))
      : /^-[^-]$/.test(arg)
        ? fss.lookupShorthand(arg.slice(1))
        : undefined;
    return flag?.noOptDefault === undefined ? arg : `${arg}=${flag.noOptDefault}`;
  });
}

/** The argument a missing value or an unknown shorthand came from, for pflag's messages (yargs keeps no positions). */
function tokenWith(argv: readonly string[], test: (arg: string) => boolean): string | undefined {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).find(test);
}

/**
 * Parses argv with pflag's rules: `--name value`, `--name=value`, bare booleans, `-v4`, `-v=4`,
 * `-v 4`, `--` ending the flags. yargs-parser does the tokenizing; each flag's FlagType parses its
 * values. Unlike pflag it does not stop at the first problem: every problem is collected so a user
 * fixes the whole command line in one go.
 */
export function parseArgs(fss: NamedFlagSets, argv: readonly string[]): ParseResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  const flags = fss.all();
  // Shorthands are declared as keys of their own, not yargs aliases: an alias would also accept
  // `--h` for `-h`, which pflag refuses.
  const shorthand = (f: Flag) =>
    f.shorthand !== undefined && f.shorthand !== f.name ? f.shorthand : undefined;
  const parsed = yargsParser(spellOutNoOptDefaults(fss, argv), {
    narg: Object.fromEntries(
      flags.flatMap((f) => [f.name, shorthand(f)].filter((k) => k !== undefined).map((k) => [k, 1])),
    ),
    configuration: PFLAG_RULES,
  });

  const done = new Set<Flag>();
  for (const [key, value] of Object.entries(parsed)) {
    if (key === '_' || key === '--') continue;
    const flag = fss.lookup(key) ?? (writtenWithTwoDashes(argv, key) ? undefined : fss.lookupShorthand(key));
    if (flag === undefined) {
      errors.push(...unknownFlag(argv, key, occurrences(value).length));
      continue;
    }
    if (done.has(flag)) continue; // already applied from its long or its short key
    // Long spellings before short ones: yargs keeps no order across keys. Only --help/-h has
    // both (-v is both names), so this differs from pflag only for `-h=false --help`.
    done.add(flag);
    const display = flag.shorthand ? `-${flag.shorthand}, --${flag.name}` : `--${flag.name}`;
    const short = shorthand(flag);
    const values = [
      ...(flag.name in parsed ? occurrences(parsed[flag.name]) : []),
      ...(short !== undefined && short in parsed && !writtenWithTwoDashes(argv, short)
        ? occurrences(parsed[short])
        : []),
    ];
    for (const raw of values) {
      if (raw === true && flag.noOptDefault !== undefined) apply(flag, flag.noOptDefault, display);
      else if (typeof raw === 'string') apply(flag, raw, display);
      else errors.push(missingArgument(argv, flag));
    }
  }

  function apply(flag: Flag, raw: string, display: string): void {
    try {
      flag.set(raw);
    } catch (err) {
      errors.push(`invalid argument ${JSON.stringify(raw)} for "${display}" flag: ${(err as Error).message}`);
      return;
    }
    if (flag.deprecated !== undefined) {
      warnings.push(`Flag --${flag.name} has been deprecated, ${flag.deprecated}`);
    }
  }

  const positionals = [...(parsed._ as unknown[]), ...((parsed['--'] ?? []) as unknown[])].map(String);
  return { errors, warnings, positionals };
}

/** yargs-parser files `--h` and `-h` under one key; to pflag the first is not the shorthand. */
function writtenWithTwoDashes(argv: readonly string[], key: string): boolean {
  return (
    key.length === 1 && tokenWith(argv, (a) => a === `--${key}` || a.startsWith(`--${key}=`)) !== undefined
  );
}

/** yargs-parser gives one occurrence as itself and several as an array. */
function occurrences(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/**
 * With `nargs-eats-options` only the last flag before `--` can lack its value, and yargs-parser
 * says only "Not enough arguments following: key"; pflag names the argument as typed.
 */
function missingArgument(argv: readonly string[], flag: Flag): string {
  const end = argv.indexOf('--');
  const last = (end === -1 ? argv : argv.slice(0, end)).at(-1) ?? '';
  if (last.startsWith('--')) return `flag needs an argument: ${last}`;
  return `flag needs an argument: '${flag.shorthand ?? flag.name}' in ${last}`;
}

/**
 * pflag's three messages for something that is not a declared flag. yargs-parser files every
 * unknown option under its key, so the argument it came from is looked up again: `---x` and `--=x`
 * are syntax errors to pflag, and a single letter is a shorthand only when written with one dash.
 */
function unknownFlag(argv: readonly string[], key: string, count: number): string[] {
  let message = `unknown flag: --${key}`;
  if (key.startsWith('-') || key.startsWith('=')) {
    const arg = tokenWith(argv, (a) => a.startsWith(`--${key}`)) ?? `--${key}`;
    message = `bad flag syntax: ${arg}`;
  } else if (key.length === 1) {
    const group = tokenWith(
      argv,
      (a) => /^-[^-]/.test(a) && a.slice(1).split('=')[0]?.includes(key) === true,
    );
    if (group !== undefined) message = `unknown shorthand flag: '${key}' in ${group}`;
  }
  return Array.from({ length: count }, () => message);
}
