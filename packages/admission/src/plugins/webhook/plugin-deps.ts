import type { AdmissionMetrics } from '../../metrics.js';
import type { ObjectIndex } from '../../registry.js';
import type { WebhookClients } from './client.js';
import type { NamespaceLabels } from './match.js';

/**
 * What both webhook plugins read: their configurations, namespaces' labels, the HTTPS clients,
 * and where each call is timed.
 */
export interface WebhookPluginDeps {
  readonly configurations: ObjectIndex;
  readonly namespaces: NamespaceLabels;
  readonly clients: WebhookClients;
  readonly metrics: AdmissionMetrics;
}
