/**
 * PodTolerationRestriction (kube's plugin/pkg/admission/podtolerationrestriction): a new pod gets
 * its namespace's default tolerations (the `scheduler.alpha.kubernetes.io/defaultTolerations`
 * annotation, else the configured `default`); a pod that is not BestEffort tolerates memory
 * pressure; and every pod's tolerations must fit its namespace's whitelist (the
 * `scheduler.alpha.kubernetes.io/tolerationsWhitelist` annotation, else the configured
 * `whitelist`). An annotation set to "" means "none", overriding the configuration.
 */
import { aggregateFieldErrors, FieldPath, forbidden } from '@keel/apimachinery';
import { computePodQOS, validateTolerations, type Pod, type Toleration } from '@keel/coreapi';
import { ConfigFileError, parseConfig } from '@keel/config-file';
import { z } from 'zod';
import type { AdmissionAttributes } from '../attributes.js';
import type { PluginConfig } from '../configuration.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import type { AdmissionPluginDeps } from '../registry.js';
import { annotation, namespaceReader } from './namespaces.js';
import { podOf } from './pods.js';
import { mergeTolerations, verifyAgainstWhitelist } from './tolerations.js';

export const NAMESPACE_DEFAULT_TOLERATIONS = 'scheduler.alpha.kubernetes.io/defaultTolerations';
export const NAMESPACE_TOLERATIONS_WHITELIST = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
const MEMORY_PRESSURE: Toleration = {
  key: 'node.kubernetes.io/memory-pressure',
  operator: 'Exists',
  effect: 'NoSchedule',
};

const tolerationSchema = z.strictObject({
  key: z.string().optional(),
  operator: z.string().optional(),
  value: z.string().optional(),
  effect: z.string().optional(),
  tolerationSeconds: z.number().int().nullish(),
});

const configSchema = z.strictObject({
  apiVersion: z.enum([
    'podtolerationrestriction.admission.k8s.io/v1alpha1',
    'podtolerationrestriction.admission.k8s.io/v1',
  ]),
  kind: z.literal('Configuration'),
  default: z.array(tolerationSchema).nullish(),
  whitelist: z.array(tolerationSchema).nullish(),
});

/** The stored form: empty strings and nulls left out, so equal tolerations compare equal. */
function canonical(t: z.output<typeof tolerationSchema>): Toleration {
  const out: Toleration = {};
  for (const k of ['key', 'operator', 'value', 'effect'] as const) if (t[k]) out[k] = t[k];
  if (t.tolerationSeconds != null) out.tolerationSeconds = t.tolerationSeconds;
  return out;
}

export interface TolerationRestrictionConfig {
  readonly default: readonly Toleration[];
  readonly whitelist: readonly Toleration[];
}

/** Checks the configuration's shape and each toleration as pod validation would; throws ConfigFileError. */
export function parseTolerationRestrictionConfig(
  config: PluginConfig | undefined,
): TolerationRestrictionConfig {
  if (!config) return { default: [], whitelist: [] };
  const doc = parseConfig(configSchema, config.value, config.source);
  const parsed = {
    default: (doc.default ?? []).map(canonical),
    whitelist: (doc.whitelist ?? []).map(canonical),
  };
  const errs = [
    ...validateTolerations(parsed.default, FieldPath.of('default')),
    ...validateTolerations(parsed.whitelist, FieldPath.of('whitelist')),
  ];
  if (errs.length > 0) throw new ConfigFileError(`${config.source}: ${aggregateFieldErrors(errs)}`);
  return parsed;
}

/** A namespace annotation's tolerations: undefined when unset, [] when set to "". */
function annotatedTolerations(pod: Pod, value: string | undefined, key: string): Toleration[] | undefined {
  if (value === undefined) return undefined;
  if (value === '') return [];
  let doc: unknown;
  try {
    doc = JSON.parse(value);
  } catch (err) {
    throw forbidden(
      { group: '', resource: 'pods' },
      pod.metadata.name ?? '',
      `${key}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  // Go's json.Unmarshal ignores fields it does not know; the file's schema is the strict one.
  const parsed = z.array(tolerationSchema.strip()).safeParse(doc);
  if (!parsed.success) {
    throw forbidden(
      { group: '', resource: 'pods' },
      pod.metadata.name ?? '',
      `${key}: expected a list of tolerations`,
    );
  }
  return parsed.data.map(canonical);
}

export function podTolerationRestriction(
  config: TolerationRestrictionConfig,
  deps: AdmissionPluginDeps,
): AdmissionPlugin {
  const namespaceOf = namespaceReader(deps);

  async function annotated(
    attrs: AdmissionAttributes,
    pod: Pod,
    key: string,
  ): Promise<Toleration[] | undefined> {
    return annotatedTolerations(pod, annotation(await namespaceOf(attrs.namespace), key), key);
  }

  async function validate(attrs: AdmissionAttributes): Promise<void> {
    const pod = podOf(attrs);
    const tolerations = pod?.spec?.tolerations ?? [];
    if (!pod || tolerations.length === 0) return;
    const own = await annotated(attrs, pod, NAMESPACE_TOLERATIONS_WHITELIST);
    const [whitelist, scope] = own ? [own, 'namespace'] : [config.whitelist, 'cluster'];
    if (!verifyAgainstWhitelist(tolerations, whitelist)) {
      throw admissionForbidden(
        attrs,
        `pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`,
      );
    }
  }

  return {
    name: 'PodTolerationRestriction',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async admit(attrs) {
      const pod = podOf(attrs);
      if (!pod) return;
      const extra: Toleration[] = [];
      if (attrs.operation === 'CREATE') {
        const defaults = (await annotated(attrs, pod, NAMESPACE_DEFAULT_TOLERATIONS)) ?? config.default;
        extra.push(...defaults.map((t) => ({ ...t })));
      }
      if (computePodQOS(pod) !== 'BestEffort') extra.push({ ...MEMORY_PRESSURE });
      if (extra.length > 0) {
        const spec = (pod.spec ??= {});
        spec.tolerations = mergeTolerations(spec.tolerations ?? [], extra);
      }
      await validate(attrs);
    },
    validate,
  };
}
