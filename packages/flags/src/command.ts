import { refusedFlagErrors, type FlagEffects } from './effects.js';
import { NamedFlagSets } from './flag-set.js';
import type { FlagType } from './flag-type.js';
import { parseGoBool } from './go-strconv.js';
import { renderHelp } from './help.js';
import { parseArgs } from './parse-args.js';
import { parseSemanticVersion } from './semantic-version.js';
import { bool } from './types.js';

export type VersionRequest = 'false' | 'true' | 'raw';

/** What the --version occurrences decided, together. */
export interface VersionFlagValue {
  /** Whether to print the version and quit, and in which form. */
  readonly request: VersionRequest;
  /** A `--version=vX.Y.Z...` value: the version the daemon reports instead of its build's. */
  readonly reported?: string;
}

const NO_VERSION_REQUEST: VersionFlagValue = { request: 'false' };

/**
 * verflag's --version: a bare flag prints the version, `--version=raw` the full build info, and a
 * value starting with `v` must be a semantic version, which then replaces the build's version
 * wherever the daemon reports it. Setting it also cancels an earlier bare --version, as in
 * verflag, so `--version=v1.2.3 --version` prints v1.2.3 and `--version --version=v1.2.3` runs.
 * kube only lets the version differ from the build's in its pre-release and metadata parts, since
 * its binary version selects behaviour; Keel's reported version selects none, so any semantic
 * version is taken.
 */
export const versionFlag: FlagType<VersionFlagValue> = {
  typeName: 'version',
  noOptDefault: 'true',
  parse: (raw, current) => {
    if (raw === 'raw') return { ...current, request: 'raw' };
    if (raw.startsWith('v')) {
      parseSemanticVersion(raw);
      return { request: 'false', reported: raw };
    }
    return { ...current, request: parseGoBool(raw) ? 'true' : 'false' };
  },
  format: (v) => (v.request === 'false' && v.reported !== undefined ? v.reported : v.request),
  isZero: (v) => v.request === 'false' && v.reported === undefined,
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
  /**
   * The build info once `--version=vX.Y.Z` has set the version the daemon reports, for
   * `--version=raw` to print; without it only gitVersion changes.
   */
  reportedBuild?(gitVersion: string): BuildInfo;
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
  | {
      readonly action: 'run';
      readonly warnings: string[];
      readonly flags: NamedFlagSets;
      /** Set by `--version=vX.Y.Z`: the version to report instead of the build's. */
      readonly reportedVersion?: string;
    };

const GLOBAL_EFFECTS: FlagEffects = {
  help: { acts: ['packages/flags/src/command.test.ts'] },
  version: {
    acts: [
      'packages/flags/src/command.test.ts',
      'packages/flags/src/version-flag.test.ts',
      'apps/apiserver/test/version.test.ts',
      'apps/scheduler/test/version.test.ts',
    ],
  },
};

/** Builds the flag set for a command; exported so docs and tests see exactly what --help sees. */
export function buildFlagSets(
  cmd: CommandDefinition,
  globals: { help: boolean; version: VersionFlagValue } = { help: false, version: NO_VERSION_REQUEST },
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
  const globals = { help: false, version: NO_VERSION_REQUEST };
  const fss = buildFlagSets(cmd, globals);
  const parsed = parseArgs(fss, argv);
  if (globals.help) return { action: 'help', text: renderHelp(fss, cmd.description) };
  const { request, reported } = globals.version;
  if (request !== 'false' && parsed.errors.length === 0) {
    const build = reported === undefined ? cmd.build : reportedBuild(cmd, reported);
    const text = request === 'raw' ? JSON.stringify(build, null, 2) : `Keel ${build.gitVersion}`;
    return { action: 'version', text };
  }
  const errors = [...parsed.errors];
  if (parsed.positionals.length > 0) {
    errors.push(`"${cmd.name}" does not take any arguments, got ${JSON.stringify(parsed.positionals)}`);
  }
  errors.push(...refusedFlagErrors(fss, fss.effects));
  errors.push(...cmd.validate(fss));
  if (errors.length > 0) return { action: 'fail', errors, warnings: parsed.warnings };
  return {
    action: 'run',
    warnings: parsed.warnings,
    flags: fss,
    ...(reported !== undefined ? { reportedVersion: reported } : {}),
  };
}

function reportedBuild(cmd: CommandDefinition, gitVersion: string): BuildInfo {
  return cmd.reportedBuild ? cmd.reportedBuild(gitVersion) : { ...cmd.build, gitVersion };
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
