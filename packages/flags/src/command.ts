import { refusedFlagErrors, type FlagEffects } from './effects.js';
import { NamedFlagSets } from './flag-set.js';
import type { FlagType } from './flag-type.js';
import { renderHelp } from './help.js';
import { parseArgs } from './parse-args.js';
import { bool } from './types.js';

export type VersionRequest = 'false' | 'true' | 'raw';

/** verflag's --version: a bare flag prints the version, `--version=raw` the full build info. */
export const versionFlag: FlagType<VersionRequest> = {
  typeName: 'version',
  noOptDefault: 'true',
  parse: (raw) => {
    if (raw === 'raw') return 'raw';
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw)) return 'true';
    if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(raw)) return 'false';
    throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
  },
  format: (v) => v,
  isZero: (v) => v === 'false',
};

export interface BuildInfo {
  readonly gitVersion: string;
  readonly [key: string]: string;
}

export interface CommandDefinition {
  /** The binary's name (`keel-apiserver`). */
  readonly name: string;
  /** The paragraph --help opens with. */
  readonly description: string;
  readonly build: BuildInfo;
  /** Registers every flag of every concern. */
  addFlags(fss: NamedFlagSets): void;
  /** Every problem with the parsed values, each naming its flag; may consult `fss.changed`. */
  validate(fss: NamedFlagSets): string[];
  /** What every flag does in Keel (the global --help and --version act and need no entry). */
  readonly effects?: FlagEffects;
}

export type CommandLine =
  | { readonly action: 'help'; readonly text: string }
  | { readonly action: 'version'; readonly text: string }
  | { readonly action: 'fail'; readonly errors: string[]; readonly warnings: string[] }
  | { readonly action: 'run'; readonly warnings: string[]; readonly flags: NamedFlagSets };

const GLOBAL_EFFECTS: FlagEffects = {
  help: { acts: ['packages/flags/src/command.test.ts'] },
  version: { acts: ['packages/flags/src/command.test.ts'] },
};

/** Builds the flag set for a command; exported so docs and tests see exactly what --help sees. */
export function buildFlagSets(
  cmd: CommandDefinition,
  globals = { help: false, version: 'false' as VersionRequest },
): NamedFlagSets {
  const fss = new NamedFlagSets(cmd.name, { ...GLOBAL_EFFECTS, ...cmd.effects });
  cmd.addFlags(fss);
  const g = fss.section('Global');
  g.var(globals, 'help', { name: 'help', shorthand: 'h', type: bool, usage: `help for ${cmd.name}` });
  g.var(globals, 'version', {
    name: 'version',
    type: versionFlag,
    usage:
      '--version, --version=raw prints version information and quits; --version=vX.Y.Z... sets the reported version',
  });
  return fss;
}

/** Parses and validates a command line, deciding what the process does next. Never throws for bad input. */
export function parseCommandLine(cmd: CommandDefinition, argv: readonly string[]): CommandLine {
  const globals = { help: false, version: 'false' as VersionRequest };
  const fss = buildFlagSets(cmd, globals);
  const parsed = parseArgs(fss, argv);
  if (globals.help) return { action: 'help', text: renderHelp(fss, cmd.description) };
  if (globals.version !== 'false' && parsed.errors.length === 0) {
    const text =
      globals.version === 'raw' ? JSON.stringify(cmd.build, null, 2) : `Keel ${cmd.build.gitVersion}`;
    return { action: 'version', text };
  }
  const errors = [...parsed.errors];
  if (parsed.positionals.length > 0) {
    errors.push(`"${cmd.name}" does not take any arguments, got ${JSON.stringify(parsed.positionals)}`);
  }
  errors.push(...refusedFlagErrors(fss, fss.effects));
  errors.push(...cmd.validate(fss));
  if (errors.length > 0) return { action: 'fail', errors, warnings: parsed.warnings };
  return { action: 'run', warnings: parsed.warnings, flags: fss };
}

export interface Streams {
  write(stream: 'stdout' | 'stderr', text: string): void;
}

/**
 * Prints what a parse decided and returns the exit code when the process should stop
 * (0 after help or version, 1 after bad flags), or undefined when it should run.
 */
export function reportCommandLine(line: CommandLine, io: Streams): number | undefined {
  switch (line.action) {
    case 'help':
      io.write('stdout', line.text + '\n');
      return 0;
    case 'version':
      io.write('stdout', line.text + '\n');
      return 0;
    case 'fail':
      for (const w of line.warnings) io.write('stderr', `${w}\n`);
      for (const e of line.errors) io.write('stderr', `Error: ${e}\n`);
      return 1;
    case 'run':
      for (const w of line.warnings) io.write('stderr', `${w}\n`);
      return undefined;
  }
}
