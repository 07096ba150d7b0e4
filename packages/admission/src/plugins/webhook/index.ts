/**
 * MutatingAdmissionWebhook and ValidatingAdmissionWebhook: writes sent for review to the HTTPS
 * webhooks that admissionregistration.k8s.io/v1 configurations name.
 */
import { readFileSync } from 'node:fs';
import { ConfigFileError } from '@keel/config-file';
import { noAdmissionMetrics } from '../../metrics.js';
import type { AdmissionPlugin } from '../../plugin.js';
import type { AdmissionFlags, AdmissionPluginDefinition, AdmissionPluginDeps } from '../../registry.js';
import { WebhookClients, type ClientIdentity } from './client.js';
import type { NamespaceLabels } from './match.js';
import { mutatingWebhookPlugin } from './mutating.js';
import type { WebhookPluginDeps } from './plugin-deps.js';
import { validatingWebhookPlugin } from './validating.js';

export { mutatingWebhookPlugin } from './mutating.js';
export { validatingWebhookPlugin } from './validating.js';
export {
  ruleMatches,
  objectSelectorMatches,
  namespaceSelectorMatches,
  shouldCall,
  isExemptResource,
} from './match.js';
export { WebhookClients, type ClientIdentity, type ServiceCalls } from './client.js';
export { resolveService, type ServiceRouting, type ServiceTarget } from './service-resolver.js';
export type { WebhookPluginDeps } from './plugin-deps.js';

function readIdentity(flags: AdmissionFlags): ClientIdentity | undefined {
  const files = flags.webhookClientCertificate;
  if (!files) return undefined;
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigFileError(`--${flag}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return {
    cert: read('proxy-client-cert-file', files.certFile),
    key: read('proxy-client-key-file', files.keyFile),
  };
}

function namespaceLabels(deps: AdmissionPluginDeps): NamespaceLabels {
  const namespaces = deps.objects('namespaces');
  return {
    async labelsOf(name) {
      // A namespace created a moment ago may not be in the copy yet: the store decides.
      const ns = namespaces.get('', name) ?? (await deps.read('namespaces', '', name));
      return ns ? (ns.metadata.labels ?? {}) : undefined;
    },
  };
}

function webhookDefinition(
  name: string,
  resource: string,
  build: (deps: WebhookPluginDeps) => AdmissionPlugin,
): AdmissionPluginDefinition {
  return {
    prepare(config, flags) {
      if (config) throw new ConfigFileError(`${config.source}: ${name} takes no configuration`);
      const identity = readIdentity(flags);
      return (deps) =>
        build({
          configurations: deps.objects(resource),
          namespaces: namespaceLabels(deps),
          clients: new WebhookClients(identity, flags.webhookDial, {
            routing: flags.webhookServiceRouting ?? 'cluster-ip',
            read: (resource, namespace, name) => deps.read(resource, namespace, name),
            dial: flags.webhookServiceDial,
          }),
          metrics: deps.metrics ?? noAdmissionMetrics,
        });
    },
  };
}

export const mutatingAdmissionWebhook = webhookDefinition(
  'MutatingAdmissionWebhook',
  'mutatingwebhookconfigurations',
  mutatingWebhookPlugin,
);

export const validatingAdmissionWebhook = webhookDefinition(
  'ValidatingAdmissionWebhook',
  'validatingwebhookconfigurations',
  validatingWebhookPlugin,
);
