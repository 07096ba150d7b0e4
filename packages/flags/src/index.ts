export { Duration } from './duration.js';
export type { FlagType } from './flag-type.js';
export { NamedFlagSets, FlagSection, type Flag, type FlagSpec } from './flag-set.js';
export { parseArgs, type ParseResult } from './parse-args.js';
export { renderHelp, renderMarkdown } from './help.js';
export { assembleConfig, composeOptions, type OptionsGroup } from './options.js';
export {
  buildFlagSets,
  parseCommandLine,
  reportCommandLine,
  versionFlag,
  type BuildInfo,
  type CommandDefinition,
  type CommandLine,
  type Streams,
  type VersionFlagValue,
  type VersionRequest,
} from './command.js';
export * as flagTypes from './types.js';
export type { PortRange, NamedCertKey, ModuleLevel } from './types.js';
export { parseCidr } from './types.js';
export { parseGoBool, parseGoInt, parseGoFloat } from './go-strconv.js';
export {
  checkPort,
  checkNonNegative,
  checkPositive,
  checkPaired,
  checkOneOf,
  checkEachOneOf,
  checkDurationNonNegative,
  checkDurationPositive,
  checkNoDuplicates,
} from './validate.js';
export {
  effectNote,
  effectWord,
  effectsTableProblems,
  isMeaningless,
  isRefused,
  refusedFlagErrors,
  type FlagEffect,
  type FlagEffects,
} from './effects.js';
