/**
 * The webhooks as the plugins read them from the server's watched copies of the
 * admissionregistration.k8s.io/v1 configurations (stored with the v1 defaults applied), in
 * upstream's order: configurations sorted by name, webhooks in their configuration's order.
 */
import type { StoredObject } from '@keel/resource';
import type { ObjectIndex } from '../../registry.js';

export interface WebhookSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { key: string; operator: string; values?: string[] }[];
}

export interface WebhookRule {
  readonly operations?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly apiVersions?: readonly string[];
  readonly resources?: readonly string[];
  readonly scope?: string;
}

export interface WebhookSpec {
  readonly name: string;
  readonly clientConfig: {
    readonly url?: string;
    readonly service?: {
      readonly namespace: string;
      readonly name: string;
      readonly path?: string;
      readonly port?: number;
    };
    /** Standard base64 of a PEM bundle. */
    readonly caBundle?: string;
  };
  readonly rules?: readonly WebhookRule[];
  readonly failurePolicy?: string;
  readonly matchPolicy?: string;
  readonly namespaceSelector?: WebhookSelector;
  readonly objectSelector?: WebhookSelector;
  readonly sideEffects?: string;
  readonly timeoutSeconds?: number;
  readonly admissionReviewVersions?: readonly string[];
  readonly reinvocationPolicy?: string;
}

/** One webhook of one configuration; `uid` tells two webhooks of the same name apart. */
export interface ConfiguredWebhook {
  readonly uid: string;
  readonly configurationName: string;
  readonly spec: WebhookSpec;
}

type WebhookConfigurationObject = StoredObject & { webhooks?: WebhookSpec[] };

/** Every webhook of every configuration in `index`, in the order they are called. */
export function configuredWebhooks(index: ObjectIndex): ConfiguredWebhook[] {
  const configs = (index.list() as WebhookConfigurationObject[])
    .map((c) => ({ name: c.metadata.name ?? '', webhooks: c.webhooks ?? [] }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return configs.flatMap((c) =>
    c.webhooks.map((spec, i) => ({ uid: `${c.name}/${spec.name}/${i}`, configurationName: c.name, spec })),
  );
}
