/**
 * PodSecurity's configuration: a PodSecurityConfiguration in --admission-control-config-file
 * (the cluster-wide defaults for unlabelled namespaces and the exemptions).
 */
import { isDNS1123Label } from '@keel/apimachinery';
import { parseConfig } from '@keel/config-file';
import { z } from 'zod';
import type { PluginConfig } from '../../configuration.js';
import {
  LATEST,
  LEVEL_ERROR,
  parseLevel,
  parseVersion,
  VERSION_ERROR,
  type Level,
  type Policy,
  type PolicyVersion,
} from './levels.js';

export interface PodSecurityConfig {
  readonly defaults: Policy;
  readonly exemptions: {
    readonly usernames: ReadonlySet<string>;
    readonly namespaces: ReadonlySet<string>;
    readonly runtimeClasses: ReadonlySet<string>;
  };
}

const level = z
  .string()
  .refine((v) => parseLevel(v) !== undefined, { message: LEVEL_ERROR })
  .transform((v) => parseLevel(v) ?? 'privileged');
const version = z
  .string()
  .refine((v) => parseVersion(v) !== undefined, { message: VERSION_ERROR })
  .transform((v): PolicyVersion => parseVersion(v) ?? LATEST);

/** A list of distinct non-empty names, each passing `valid` (kube's exemption validation). */
function nameList(valid: (v: string) => string | undefined) {
  return z
    .array(z.string())
    .nullish()
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      (items ?? []).forEach((v, i) => {
        const problem = v === '' ? 'must be non-empty' : seen.has(v) ? `duplicate value "${v}"` : valid(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [i] });
        seen.add(v);
      });
    })
    .transform((items) => new Set(items ?? []));
}

const schema = z.strictObject({
  apiVersion: z.enum([
    'pod-security.admission.config.k8s.io/v1',
    'pod-security.admission.config.k8s.io/v1beta1',
    'pod-security.admission.config.k8s.io/v1alpha1',
  ]),
  kind: z.literal('PodSecurityConfiguration'),
  defaults: z
    .strictObject({
      enforce: level.optional(),
      'enforce-version': version.optional(),
      audit: level.optional(),
      'audit-version': version.optional(),
      warn: level.optional(),
      'warn-version': version.optional(),
    })
    .nullish(),
  exemptions: z
    .strictObject({
      usernames: nameList(() => undefined),
      namespaces: nameList((v) => isDNS1123Label(v)[0]),
      runtimeClasses: nameList(() => undefined),
    })
    .nullish(),
});

/** Everything privileged at the latest version, nothing exempt: the server's default. */
export const DEFAULT_POD_SECURITY_CONFIG: PodSecurityConfig = {
  defaults: {
    enforce: { level: 'privileged', version: LATEST },
    audit: { level: 'privileged', version: LATEST },
    warn: { level: 'privileged', version: LATEST },
  },
  exemptions: { usernames: new Set(), namespaces: new Set(), runtimeClasses: new Set() },
};

/** Validates the plugin's configuration; throws a ConfigFileError naming the file and field. */
export function parsePodSecurityConfig(config: PluginConfig | undefined): PodSecurityConfig {
  if (!config) return DEFAULT_POD_SECURITY_CONFIG;
  const c = parseConfig(schema, config.value, config.source);
  const d = c.defaults ?? {};
  const lv = (l: Level | undefined, v: PolicyVersion | undefined) => ({
    level: l ?? 'privileged',
    version: v ?? LATEST,
  });
  const none = new Set<string>();
  return {
    defaults: {
      enforce: lv(d.enforce, d['enforce-version']),
      audit: lv(d.audit, d['audit-version']),
      warn: lv(d.warn, d['warn-version']),
    },
    exemptions: {
      usernames: c.exemptions?.usernames ?? none,
      namespaces: c.exemptions?.namespaces ?? none,
      runtimeClasses: c.exemptions?.runtimeClasses ?? none,
    },
  };
}
