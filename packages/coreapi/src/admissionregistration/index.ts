export { ADMISSION_REGISTRATION_GROUP, mutatingWebhookConfigurationView, validatingWebhookConfigurationView } from './views.js';
export type {
  MatchCondition,
  MutatingWebhook,
  MutatingWebhookConfiguration,
  RuleWithOperations,
  ValidatingWebhook,
  ValidatingWebhookConfiguration,
  WebhookClientConfig,
  WebhookLabelSelector,
  WebhookServiceReference,
} from './schema.js';
