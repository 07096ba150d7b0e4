import type { Flag, NamedFlagSets } from './flag-set.js';

export interface ParseResult {
  /** One line per problem, pflag's wording, in command-line order. */
  readonly errors: string[];
  /** Deprecation notices for flags that were used. */
  readonly warnings: string[];
  /** Arguments that are not flags (the daemons take none). */
  readonly positionals: string[];
}

/**
 * Parses argv with pflag's rules: `--name value`, `--name=value`, bare booleans, `-v4`, `-v=4`,
 * `-v 4`, `--` ending the flags. Unlike pflag it does not stop at the first problem: every
 * problem is collected so a user fixes the whole command line in one go.
 */
export function parseArgs(fss: NamedFlagSets, argv: readonly string[]): ParseResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  const positionals: string[] = [];
  const args = [...argv];

  const apply = (flag: Flag, raw: string, display: string) => {
    try {
      flag.set(raw);
    } catch (err) {
      errors.push(`invalid argument ${JSON.stringify(raw)} for "${display}" flag: ${(err as Error).message}`);
      return;
    }
    if (flag.deprecated !== undefined) {
      warnings.push(`Flag --${flag.name} has been deprecated, ${flag.deprecated}`);
    }
  };

  while (args.length > 0) {
    const s = args.shift() ?? '';
    if (s.length < 2 || s[0] !== '-') {
      positionals.push(s);
      continue;
    }
    if (s === '--') {
      positionals.push(...args);
      break;
    }
    if (s[1] === '-') {
      const body = s.slice(2);
      if (body === '' || body[0] === '-' || body[0] === '=') {
        errors.push(`bad flag syntax: ${s}`);
        continue;
      }
      const eq = body.indexOf('=');
      const name = eq === -1 ? body : body.slice(0, eq);
      const flag = fss.lookup(name);
      if (!flag) {
        errors.push(`unknown flag: --${name}`);
        // Best guess: a value that follows an unknown flag belongs to it, not a positional.
        if (eq === -1 && args.length > 0 && !(args[0] ?? '').startsWith('-')) args.shift();
        continue;
      }
      const display = flag.shorthand ? `-${flag.shorthand}, --${flag.name}` : `--${flag.name}`;
      if (eq !== -1) apply(flag, body.slice(eq + 1), display);
      else if (flag.noOptDefault !== undefined) apply(flag, flag.noOptDefault, display);
      else if (args.length > 0) apply(flag, args.shift() ?? '', display);
      else errors.push(`flag needs an argument: ${s}`);
      continue;
    }
    let shorthands = s.slice(1);
    while (shorthands.length > 0) {
      const c = shorthands[0] ?? '';
      const flag = fss.lookupShorthand(c);
      if (!flag) {
        errors.push(`unknown shorthand flag: '${c}' in ${s}`);
        break;
      }
      const display = `-${c}, --${flag.name}`;
      if (shorthands.length > 2 && shorthands[1] === '=') {
        apply(flag, shorthands.slice(2), display);
        shorthands = '';
      } else if (flag.noOptDefault !== undefined) {
        apply(flag, flag.noOptDefault, display);
        shorthands = shorthands.slice(1);
      } else if (shorthands.length > 1) {
        apply(flag, shorthands.slice(1), display);
        shorthands = '';
      } else if (args.length > 0) {
        apply(flag, args.shift() ?? '', display);
        shorthands = '';
      } else {
        errors.push(`flag needs an argument: '${c}' in ${s}`);
        shorthands = '';
      }
    }
  }
  return { errors, warnings, positionals };
}
