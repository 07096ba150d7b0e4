import { readFileSync, writeFileSync } from 'node:fs';
import { parseDocument, stringify } from 'yaml';
import { applyDefaults } from './config-defaults.js';
import { validateConfigFile, validateSchedulerConfiguration } from './config-rules.js';
import { dropNullFields, formatIssues, VERSION_SCHEMAS } from './config-schema.js';
import { SCHEDULER_CONFIG_KIND, type SchedulerConfiguration } from './config-types.js';
import { serializeExtender } from './extender-config.js';
import {
  ACCEPTED_VERSIONS,
  convertToInternal,
  SCHEDULER_CONFIG_GROUP,
  versionOf,
} from './config-versions.js';

export type ConfigFileResult =
  | { readonly config: SchedulerConfiguration; readonly warnings: string[]; readonly errors?: undefined }
  | { readonly config?: undefined; readonly warnings?: undefined; readonly errors: string[] };

/** Node's "ENOENT: no such file or directory, open '/x'" without the repeated path. */
function ioReason(err: unknown): string {
  return ((err as Error).message ?? String(err)).split(', ')[0] ?? String(err);
}

const acceptedList = ACCEPTED_VERSIONS.map((v) => JSON.stringify(`${SCHEDULER_CONFIG_GROUP}/${v}`)).join(
  ', ',
);

function checkHeader(doc: Record<string, unknown>): string[] {
  const { apiVersion, kind } = doc;
  const missing = (v: unknown) => v === undefined || v === null;
  return [
    ...(missing(apiVersion)
      ? [`apiVersion is missing; expected one of ${acceptedList}`]
      : versionOf(apiVersion)
        ? []
        : [`apiVersion ${JSON.stringify(apiVersion)} is not supported; expected one of ${acceptedList}`]),
    ...(missing(kind)
      ? [`kind is missing; expected ${JSON.stringify(SCHEDULER_CONFIG_KIND)}`]
      : kind === SCHEDULER_CONFIG_KIND
        ? []
        : [
            `kind ${JSON.stringify(kind)} is not supported; expected ${JSON.stringify(SCHEDULER_CONFIG_KIND)}`,
          ]),
  ];
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
  const version = versionOf((raw as Record<string, unknown>).apiVersion);
  if (version === undefined) return { errors: ['apiVersion: not supported'] }; // checkHeader refused it
  const parsed = VERSION_SCHEMAS[version].safeParse(dropNullFields(raw), { reportInput: true });
  if (!parsed.success) return { errors: formatIssues(parsed.error.issues) };
  const converted = convertToInternal(version, parsed.data);
  if (converted.errors.length > 0) return { errors: converted.errors };
  const fileErrors = validateConfigFile(converted.file);
  if (fileErrors.length > 0) return { errors: fileErrors };
  const config = applyDefaults(converted.file, converted.pluginDefaults);
  return { config, warnings: [...converted.warnings] };
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
