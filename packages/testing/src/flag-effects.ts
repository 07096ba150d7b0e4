import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildFlagSets,
  effectsTableProblems,
  isRefused,
  parseCommandLine,
  type CommandDefinition,
  type Flag,
} from '@keel/flags';

/**
 * Walks a daemon's effects table so it cannot drift from the code: every flag has an entry; a flag
 * that acts names test files that exist, at least one of which sets the flag by name; a refused
 * flag set to another value really stops start-up with its reason. Returns every problem found.
 */
export function flagEffectsProblems(
  command: () => CommandDefinition,
  repoRoot: string,
  /** Values to try for refused flags whose type has no obvious other value. */
  samples: Readonly<Record<string, string>> = {},
): string[] {
  const fss = buildFlagSets(command());
  const problems = effectsTableProblems(fss, fss.effects);
  const sources = new Map<string, string>();
  const read = (file: string) => {
    let text = sources.get(file);
    if (text === undefined) sources.set(file, (text = readFileSync(join(repoRoot, file), 'utf8')));
    return text;
  };
  for (const flag of fss.all()) {
    const effect = fss.effectOf(flag.name);
    if (effect === undefined) continue;
    if ('acts' in effect) {
      const missing = effect.acts.filter((f) => !existsSync(join(repoRoot, f)));
      for (const f of missing) problems.push(`--${flag.name}: test file ${f} does not exist`);
      const named = new RegExp(`--${flag.name}(?![\\w-])`);
      if (effect.acts.length === 0) problems.push(`--${flag.name} acts but names no test`);
      else if (missing.length === 0 && !effect.acts.some((f) => named.test(read(f)))) {
        problems.push(`--${flag.name}: none of ${effect.acts.join(', ')} sets --${flag.name}`);
      }
    } else if (isRefused(effect)) {
      const value = samples[flag.name] ?? otherValue(flag);
      const line = parseCommandLine(command(), [`--${flag.name}=${value}`]);
      const reason = `is not supported by Keel: ${effect.refused}`;
      if (
        line.action !== 'fail' ||
        !line.errors.some((e) => e.startsWith(`--${flag.name}=`) && e.endsWith(reason))
      ) {
        problems.push(`--${flag.name}=${value} did not stop start-up with "${reason}"`);
      }
    } else if (effect.meaningless.trim() === '') {
      problems.push(`--${flag.name} is meaningless but says not why`);
    }
  }
  return problems;
}

/** A value of the flag's type other than its default. */
function otherValue(flag: Flag): string {
  const now = flag.valueText();
  switch (flag.typeName) {
    case '':
      return now === 'true' ? 'false' : 'true';
    case 'int':
    case 'int32':
    case 'int64':
    case 'uint':
      return now === '7' ? '8' : '7';
    case 'float':
    case 'float64':
      return now === '0.01' ? '0.02' : '0.01';
    case 'duration':
      return now === '7s' ? '8s' : '7s';
    default:
      return now === 'keel-sample' ? 'keel-sample-2' : 'keel-sample';
  }
}
