/**
 * PodNodeSelector (kube's plugin/pkg/admission/podnodeselector): a new pod's node selector gets
 * its namespace's (the `scheduler.alpha.kubernetes.io/node-selector` annotation, else the
 * configured clusterDefaultNodeSelector) merged in; a pod that contradicts it, or that selects
 * labels outside its namespace's configured whitelist, is refused.
 */
import { forbidden } from '@keel/apimachinery';
import type { Pod } from '@keel/coreapi';
import { ConfigFileError, parseConfig } from '@keel/config-file';
import { z } from 'zod';
import type { AdmissionAttributes } from '../attributes.js';
import type { PluginConfig } from '../configuration.js';
import type { AdmissionPlugin } from '../plugin.js';
import type { AdmissionPluginDeps } from '../registry.js';
import { annotation, namespaceReader, type NamespaceReader } from './namespaces.js';
import { podOf } from './pods.js';
import { labelsConflict, selectorLabels } from './selector-labels.js';

export const NAMESPACE_NODE_SELECTOR = 'scheduler.alpha.kubernetes.io/node-selector';
const CLUSTER_DEFAULT = 'clusterDefaultNodeSelector';

const configSchema = z.strictObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  podNodeSelectorPluginConfig: z.record(z.string(), z.string()).nullish(),
});

/** Per namespace (and `clusterDefaultNodeSelector`): the labels it stands for. */
export type NodeSelectorConfig = ReadonlyMap<string, Record<string, string>>;

/** Checks the configuration (each selector must be `k=v,...`); throws ConfigFileError. */
export function parsePodNodeSelectorConfig(config: PluginConfig | undefined): NodeSelectorConfig {
  if (!config) return new Map();
  const { podNodeSelectorPluginConfig } = parseConfig(configSchema, config.value, config.source);
  return new Map(
    Object.entries(podNodeSelectorPluginConfig ?? {}).map(([key, selector]) => {
      try {
        return [key, selectorLabels(selector)];
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        throw new ConfigFileError(`${config.source}: podNodeSelectorPluginConfig.${key}: ${why}`);
      }
    }),
  );
}

const refuse = (pod: Pod, why: string) =>
  forbidden({ group: '', resource: 'pods' }, pod.metadata.name ?? '', why);

export function podNodeSelector(config: NodeSelectorConfig, deps: AdmissionPluginDeps): AdmissionPlugin {
  const namespaceOf: NamespaceReader = namespaceReader(deps);

  /** The namespace's annotation (even an empty one) wins over the cluster default. */
  async function namespaceSelector(attrs: AdmissionAttributes, pod: Pod): Promise<Record<string, string>> {
    const text = annotation(await namespaceOf(attrs.namespace), NAMESPACE_NODE_SELECTOR);
    if (text === undefined) return config.get(CLUSTER_DEFAULT) ?? {};
    try {
      return selectorLabels(text);
    } catch (err) {
      throw refuse(pod, err instanceof Error ? err.message : String(err));
    }
  }

  function check(attrs: AdmissionAttributes, pod: Pod, fromNamespace: Record<string, string>): void {
    const own = pod.spec?.nodeSelector ?? {};
    if (labelsConflict(fromNamespace, own)) {
      throw refuse(pod, 'pod node label selector conflicts with its namespace node label selector');
    }
    const whitelist = config.get(attrs.namespace) ?? {};
    const allowed =
      Object.keys(whitelist).length === 0 ||
      Object.entries(own).every(([k, v]) => Object.hasOwn(whitelist, k) && whitelist[k] === v);
    if (!allowed) throw refuse(pod, 'pod node label selector labels conflict with its namespace whitelist');
  }

  return {
    name: 'PodNodeSelector',
    handles: (op) => op === 'CREATE',
    async admit(attrs) {
      const pod = podOf(attrs);
      if (!pod) return;
      const fromNamespace = await namespaceSelector(attrs, pod);
      if (labelsConflict(fromNamespace, pod.spec?.nodeSelector ?? {})) {
        throw refuse(pod, 'pod node label selector conflicts with its namespace node label selector');
      }
      const spec = (pod.spec ??= {});
      const merged = { ...fromNamespace, ...spec.nodeSelector };
      if (Object.keys(merged).length > 0) spec.nodeSelector = merged;
      check(attrs, pod, fromNamespace);
    },
    async validate(attrs) {
      const pod = podOf(attrs);
      if (pod) check(attrs, pod, await namespaceSelector(attrs, pod));
    },
  };
}
