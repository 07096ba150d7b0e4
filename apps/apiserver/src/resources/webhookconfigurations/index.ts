import { mutatingWebhookConfigurationView, validatingWebhookConfigurationView } from '@keel/coreapi';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher } from '../../endpoints/dispatch.js';
import type { ScopeDefaults } from '../../server/server.js';
import { installStored, type ServedView } from '../stored.js';

/**
 * admissionregistration.k8s.io/v1 Mutating- and ValidatingWebhookConfigurations (cluster-scoped),
 * under the key roots the webhook admission plugins watch (`/<resource>`, what
 * AdmissionPluginDeps.objects reads). Writes to them are never sent to webhooks (the plugins
 * exempt them, as upstream), so a broken webhook cannot lock its own configuration.
 */
export function installWebhookConfigurations(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
): ServedView[] {
  const install = (view: ServedView) =>
    installStored(dispatcher, storage, defaults, { view, keyRoot: `/${view.resource}` }).served;
  return [install(mutatingWebhookConfigurationView), install(validatingWebhookConfigurationView)];
}
