/**
 * admissionregistration.k8s.io/v1 webhook configurations: the stored types, their wire schemas
 * (k8s.io/api/admissionregistration/v1 types.go, fields in Go's order) and the version's defaults
 * (SetDefaults_ValidatingWebhook, SetDefaults_MutatingWebhook, SetDefaults_Rule,
 * SetDefaults_ServiceReference).
 */
import { always, bytes, int32, list, named, objectMetaSpec, ptr, str, stringMap, struct, type ObjectMeta, type StructSpec, type WireSpec } from '@keel/resource';

export interface WebhookLabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface WebhookServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: WebhookServiceReference;
  /** Standard base64 of a PEM bundle, as on the wire. */
  caBundle?: string;
}

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface MatchCondition {
  name: string;
  expression: string;
}

export interface ValidatingWebhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: WebhookLabelSelector;
  objectSelector?: WebhookLabelSelector;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  matchConditions?: MatchCondition[];
}

export interface MutatingWebhook extends ValidatingWebhook {
  reinvocationPolicy?: string;
}

export interface ValidatingWebhookConfiguration {
  metadata: ObjectMeta;
  webhooks?: ValidatingWebhook[];
}

export interface MutatingWebhookConfiguration {
  metadata: ObjectMeta;
  webhooks?: MutatingWebhook[];
}

const strings = list(str, '[]string');

const labelSelector = struct('v1.LabelSelector', {
  matchLabels: stringMap,
  matchExpressions: list(
    struct('v1.LabelSelectorRequirement', { key: always(str), operator: always(named('v1.LabelSelectorOperator')), values: strings }),
    '[]v1.LabelSelectorRequirement',
  ),
});

const clientConfig = struct('v1.WebhookClientConfig', {
  url: ptr(str),
  service: ptr(struct('v1.ServiceReference', { namespace: always(str), name: always(str), path: ptr(str), port: ptr(int32) })),
  caBundle: bytes,
});

const rule = struct('v1.RuleWithOperations', {
  operations: list(named('v1.OperationType'), '[]v1.OperationType'),
  apiGroups: strings,
  apiVersions: strings,
  resources: strings,
  scope: ptr(named('v1.ScopeType')),
});

const matchConditions = list(struct('v1.MatchCondition', { name: always(str), expression: always(str) }), '[]v1.MatchCondition');

function webhookFields(withReinvocation: boolean): Record<string, WireSpec> {
  return {
    name: always(str),
    clientConfig,
    rules: list(rule, '[]v1.RuleWithOperations'),
    failurePolicy: ptr(named('v1.FailurePolicyType')),
    matchPolicy: ptr(named('v1.MatchPolicyType')),
    namespaceSelector: ptr(labelSelector),
    objectSelector: ptr(labelSelector),
    sideEffects: ptr(named('v1.SideEffectClass')),
    timeoutSeconds: ptr(int32),
    admissionReviewVersions: always(strings),
    ...(withReinvocation ? { reinvocationPolicy: ptr(named('v1.ReinvocationPolicyType')) } : {}),
    matchConditions,
  };
}

export const validatingWebhookConfigurationSpec: StructSpec = struct('v1.ValidatingWebhookConfiguration', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  webhooks: list(struct('v1.ValidatingWebhook', webhookFields(false)), '[]v1.ValidatingWebhook'),
});

export const mutatingWebhookConfigurationSpec: StructSpec = struct('v1.MutatingWebhookConfiguration', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  webhooks: list(struct('v1.MutatingWebhook', webhookFields(true)), '[]v1.MutatingWebhook'),
});

/** The v1 defaults every webhook gets. */
function defaultWebhook(hook: ValidatingWebhook): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= 10;
  for (const r of hook.rules ?? []) r.scope ??= '*';
  const service = hook.clientConfig?.service;
  if (service) service.port ??= 443;
}

export function defaultValidatingWebhookConfiguration(c: ValidatingWebhookConfiguration): void {
  for (const hook of c.webhooks ?? []) defaultWebhook(hook);
}

export function defaultMutatingWebhookConfiguration(c: MutatingWebhookConfiguration): void {
  for (const hook of c.webhooks ?? []) {
    defaultWebhook(hook);
    hook.reinvocationPolicy ??= 'Never';
  }
}
