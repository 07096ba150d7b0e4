/**
 * --admission-control-config-file: an AdmissionConfiguration naming, per plugin, its
 * configuration inline or by a path (relative paths are relative to the file, as upstream).
 */
import { dirname, resolve } from 'node:path';
import { ConfigFileError, parseConfig, readConfigDocument } from '@keel/config-file';
import { z } from 'zod';

/** One plugin's configuration document and where it came from, for error messages. */
export interface PluginConfig {
  readonly value: unknown;
  /** e.g. `admission control config file /etc/a.yaml: plugins[0].configuration`. */
  readonly source: string;
}

const ADMISSION_CONFIG_VERSIONS = [
  'apiserver.config.k8s.io/v1',
  'apiserver.config.k8s.io/v1alpha1',
  'apiserver.k8s.io/v1alpha1',
] as const;

const admissionConfigurationSchema = z.strictObject({
  apiVersion: z.enum(ADMISSION_CONFIG_VERSIONS),
  kind: z.literal('AdmissionConfiguration'),
  plugins: z
    .array(
      z.strictObject({
        name: z.string().min(1, 'expected a plugin name'),
        path: z.string().nullish(),
        configuration: z.record(z.string(), z.unknown()).nullish(),
      }),
    )
    .nullish(),
});

const WHAT = 'admission control config file';

/** Reads the file; every plugin it names gets its configuration (read from `path` if given). */
export function loadAdmissionConfiguration(path: string): ReadonlyMap<string, PluginConfig> {
  const { file, doc } = readConfigDocument(path, WHAT);
  const config = parseConfig(admissionConfigurationSchema, doc, `${WHAT} ${file}`);
  const out = new Map<string, PluginConfig>();
  (config.plugins ?? []).forEach((p, i) => {
    const at = `${WHAT} ${file}: plugins[${i}]`;
    if (out.has(p.name))
      throw new ConfigFileError(`${at}.name: plugin ${JSON.stringify(p.name)} is configured twice`);
    if (p.path && p.configuration)
      throw new ConfigFileError(`${at}: give either path or configuration, not both`);
    if (p.path) {
      const read = readConfigDocument(resolve(dirname(file), p.path), `${p.name} configuration file`);
      out.set(p.name, { value: read.doc, source: `${p.name} configuration file ${read.file}` });
    } else if (p.configuration) {
      out.set(p.name, { value: p.configuration, source: `${at}.configuration` });
    }
  });
  return out;
}
