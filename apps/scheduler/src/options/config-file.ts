import { readFileSync, writeFileSync } from 'node:fs';
import { parseDocument, stringify } from 'yaml';
import { applyDefaults } from './config-defaults.js';
import { validateConfigFile, validateSchedulerConfiguration } from './config-rules.js';
import { dropNullFields, formatIssues, schedulerConfigFileSchema } from './config-schema.js';
import { serializeExtender } from './extender-config.js';
import {
  SCHEDULER_CONFIG_API_VERSION,
  SCHEDULER_CONFIG_KIND,
  type SchedulerConfiguration,
} from './config-types.js';

export type ConfigFileResult =
  | { readonly config: SchedulerConfiguration; readonly warnings: string[]; readonly errors?: undefined }
  | { readonly config?: undefined; readonly warnings?: undefined; readonly errors: string[] };

/** Node's "ENOENT: no such file or directory, open '/x'" without the repeated path. */
function ioReason(err: unknown): string {
  return ((err as Error).message ?? String(err)).split(', ')[0] ?? String(err);
}

function checkHeader(doc: Record<string, unknown>): string[] {
  const check = (field: string, expected: string) => {
    const value = doc[field];
    if (value === undefined || value === null)
      return [`${field} is missing; expected ${JSON.stringify(expected)}`];
    return value === expected
      ? []
      : [`${field} ${JSON.stringify(value)} is not supported; expected ${JSON.stringify(expected)}`];
  };
  return [...check('apiVersion', SCHEDULER_CONFIG_API_VERSION), ...check('kind', SCHEDULER_CONFIG_KIND)];
}

/** Parses YAML or JSON text into a defaulted configuration; problems are returned without a file prefix. */
function parseConfigText(text: string): ConfigFileResult {
  const doc = parseDocument(text);
  const yamlError = doc.errors[0];
  // The library's message carries a multi-line code frame; its first line has the reason and position.
  if (yamlError)
    return { errors: [`invalid YAML: ${(yamlError.message.split('\n')[0] ?? '').replace(/:$/, '')}`] };
  const raw: unknown = doc.toJS();
  if (raw === null || raw === undefined)
    return { errors: [`the file is empty; expected a ${SCHEDULER_CONFIG_KIND}`] };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      errors: [
        `expected a ${SCHEDULER_CONFIG_KIND} mapping, got ${Array.isArray(raw) ? 'a list' : typeof raw}`,
      ],
    };
  }
  const header = checkHeader(raw as Record<string, unknown>);
  if (header.length > 0) return { errors: header };
  const parsed = schedulerConfigFileSchema.safeParse(dropNullFields(raw), { reportInput: true });
  if (!parsed.success) return { errors: formatIssues(parsed.error.issues) };
  const fileErrors = validateConfigFile(parsed.data);
  if (fileErrors.length > 0) return { errors: fileErrors };
  return { config: applyDefaults(parsed.data), warnings: [] };
}

const prefixed = (path: string, lines: string[]) => lines.map((l) => `${path}: ${l}`);

/**
 * Reads and defaults a configuration file without the rules that depend on flags (leader election
 * flags may still override the file). Every line is prefixed with the path. Never throws.
 */
export function readSchedulerConfigFile(path: string): ConfigFileResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { errors: [`${path}: cannot read the scheduler configuration: ${ioReason(err)}`] };
  }
  const result = parseConfigText(text);
  return result.errors
    ? { errors: prefixed(path, result.errors) }
    : { config: result.config, warnings: prefixed(path, result.warnings) };
}

/** Reads, defaults and validates a configuration file (`--config`). Never throws. */
export function loadSchedulerConfigFile(path: string): ConfigFileResult {
  const result = readSchedulerConfigFile(path);
  if (result.errors) return result;
  const errors = validateSchedulerConfiguration(result.config);
  return errors.length > 0 ? { errors: prefixed(path, errors) } : result;
}

/** The configuration as YAML, apiVersion and kind first, durations in Go's format. */
export function serializeSchedulerConfig(config: SchedulerConfiguration): string {
  const { apiVersion, kind, ...rest } = config;
  const le = config.leaderElection;
  // leaderElection keeps its place from `rest`; only its value is replaced.
  const doc = {
    apiVersion,
    kind,
    ...rest,
    extenders: config.extenders.map(serializeExtender),
    leaderElection: {
      ...le,
      leaseDuration: le.leaseDuration.toString(),
      renewDeadline: le.renewDeadline.toString(),
      retryPeriod: le.retryPeriod.toString(),
    },
  };
  // Defaults are shared objects; without this the writer would emit anchors and aliases for them.
  return stringify(doc, { aliasDuplicateObjects: false });
}

/** `--write-config-to`: writes the effective configuration; returns the problem if the file cannot be written. */
export function writeEffectiveConfig(path: string, config: SchedulerConfiguration): string[] {
  try {
    writeFileSync(path, serializeSchedulerConfig(config), 'utf8');
    return [];
  } catch (err) {
    return [`--write-config-to: cannot write ${path}: ${ioReason(err)}`];
  }
}
