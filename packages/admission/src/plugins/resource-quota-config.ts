/**
 * ResourceQuota's configuration (kube's ResourceQuotaConfiguration): resources whose consumption
 * is limited by default, i.e. refused unless a quota covers it. `matchContains` picks the usage
 * names (by substring) that need a covering quota, `matchScopes` the pod scopes that do.
 */
import { ConfigFileError, parseConfig } from '@keel/config-file';
import { z } from 'zod';
import type { PluginConfig } from '../configuration.js';
import type { ScopeRequirement } from '../quota/scopes.js';

const scopeSchema = z.strictObject({
  scopeName: z.enum([
    'Terminating',
    'NotTerminating',
    'BestEffort',
    'NotBestEffort',
    'PriorityClass',
    'CrossNamespacePodAffinity',
  ]),
  operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
  values: z.array(z.string()).nullish(),
});

const configSchema = z.strictObject({
  apiVersion: z.enum([
    'apiserver.config.k8s.io/v1',
    'resourcequota.admission.k8s.io/v1beta1',
    'resourcequota.admission.k8s.io/v1alpha1',
  ]),
  kind: z.literal('ResourceQuotaConfiguration'),
  limitedResources: z
    .array(
      z.strictObject({
        apiGroup: z.string().nullish(),
        resource: z.string().min(1, 'Required value'),
        matchContains: z.array(z.string()).nullish(),
        matchScopes: z.array(scopeSchema).nullish(),
      }),
    )
    .nullish(),
});

export interface LimitedResource {
  readonly apiGroup: string;
  readonly resource: string;
  readonly matchContains: readonly string[];
  readonly matchScopes: readonly ScopeRequirement[];
}

export interface ResourceQuotaConfig {
  readonly limitedResources: readonly LimitedResource[];
}

export const emptyQuotaConfig: ResourceQuotaConfig = { limitedResources: [] };

/** Checks the plugin's configuration; throws ConfigFileError naming the file and field. */
export function parseQuotaConfig(config: PluginConfig | undefined): ResourceQuotaConfig {
  if (!config) return emptyQuotaConfig;
  const doc = parseConfig(configSchema, config.value, config.source);
  return {
    limitedResources: (doc.limitedResources ?? []).map((r, i) => {
      for (const [j, s] of (r.matchScopes ?? []).entries()) {
        const values = s.values ?? [];
        const at = `${config.source}: limitedResources[${i}].matchScopes[${j}].values`;
        if ((s.operator === 'In' || s.operator === 'NotIn') && values.length === 0)
          throw new ConfigFileError(`${at}: must be at least one value when operator is In or NotIn`);
        if ((s.operator === 'Exists' || s.operator === 'DoesNotExist') && values.length > 0)
          throw new ConfigFileError(`${at}: must be no value when operator is Exists or DoesNotExist`);
      }
      return {
        apiGroup: r.apiGroup ?? '',
        resource: r.resource,
        matchContains: r.matchContains ?? [],
        matchScopes: (r.matchScopes ?? []).map((s) => ({
          scopeName: s.scopeName,
          operator: s.operator,
          values: s.values ?? [],
        })),
      };
    }),
  };
}
