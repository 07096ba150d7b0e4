/**
 * ImagePolicyWebhook: asks a backend, with an imagepolicy.k8s.io/v1alpha1 ImageReview, whether a
 * pod's images may run; answers are cached for allowTTL/denyTTL, failures retried with backoff
 * and, when the backend cannot be reached, decided by defaultAllow.
 */
import { badRequest, forbidden } from '@keel/apimachinery';
import { ConfigFileError } from '@keel/config-file';
import {
  errorText,
  expectKind,
  sendReview,
  TtlCache,
  webhookEndpoint,
  type ReviewEndpoint,
} from '@keel/auth';
import type { AdmissionAttributes } from '../attributes.js';
import type { AdmissionPlugin } from '../plugin.js';
import type { AdmissionPluginDefinition } from '../registry.js';
import { parseImagePolicyConfig, type ImagePolicyConfig } from './image-policy-config.js';
import { arr, obj, str, strings } from './json.js';

/** The prefix of the plugin's audit annotations (kube's AuditKeyPrefix). */
export const IMAGE_POLICY_AUDIT_PREFIX = 'imagepolicywebhook.image-policy.k8s.io/';

/** The annotation a pod admitted in spite of a backend failure carries (kube's ImagePolicyFailedOpenKey). */
export const FAILED_OPEN_POD_ANNOTATION = 'alpha.image-policy.k8s.io/failed-open';

interface ImageReviewStatus {
  readonly allowed: boolean;
  readonly reason: string;
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** kube keeps up to 1024 answers. */
const CACHE_ENTRIES = 1024;

function reviewSpec(attrs: AdmissionAttributes): Record<string, unknown> {
  const pod = obj(attrs.object) ?? {};
  const spec = obj(pod['spec']) ?? {};
  // A new ephemeral container is reviewed on its own; a pod's own containers come first, then its init containers.
  const containers =
    attrs.subresource === 'ephemeralcontainers'
      ? arr(spec['ephemeralContainers'])
      : [...arr(spec['containers']), ...arr(spec['initContainers'])];
  const all = strings(obj(pod['metadata'])?.['annotations']);
  const annotations = Object.fromEntries(
    Object.keys(all)
      .filter((k) => k.includes('.image-policy.k8s.io/'))
      .sort()
      .map((k) => [k, all[k]]),
  );
  return {
    containers: containers.map((c) => ({ image: str(c['image']) })),
    annotations,
    namespace: attrs.namespace,
  };
}

function statusOf(answer: unknown): ImageReviewStatus {
  const status = obj(expectKind(answer, 'ImageReview', 'imagepolicy.k8s.io')['status']) ?? {};
  return {
    allowed: status['allowed'] === true,
    reason: str(status['reason']),
    auditAnnotations: strings(status['auditAnnotations']),
  };
}

export function imagePolicyWebhook(
  config: ImagePolicyConfig,
  endpoint: ReviewEndpoint,
  now: () => number = Date.now,
): AdmissionPlugin {
  const cache = new TtlCache<ImageReviewStatus>(CACHE_ENTRIES, now);
  const backoff = { initialMs: config.retryBackoffMs, factor: 1.5, jitter: 0.2, steps: 5 };

  async function review(
    attrs: AdmissionAttributes,
    spec: Record<string, unknown>,
  ): Promise<ImageReviewStatus | undefined> {
    const key = JSON.stringify(spec);
    const cached = cache.get(key);
    if (cached) return cached;
    try {
      const answer = await sendReview(
        endpoint,
        {
          apiVersion: 'imagepolicy.k8s.io/v1alpha1',
          kind: 'ImageReview',
          metadata: { creationTimestamp: null },
          spec,
          status: { allowed: false },
        },
        { backoff },
      );
      const status = statusOf(answer);
      cache.set(key, status, status.allowed ? config.allowTtlMs : config.denyTtlMs);
      return status;
    } catch (err) {
      const why = errorText(err);
      if (!config.defaultAllow) throw forbidden({ group: '', resource: 'pods' }, attrs.name, why);
      attrs.addAnnotation?.(`${IMAGE_POLICY_AUDIT_PREFIX}failed-open`, 'true');
      // kube still marks the pod itself, from its validating phase, so that tools without the
      // audit log can find pods admitted unchecked.
      if (attrs.object) {
        const meta = attrs.object.metadata;
        meta.annotations = { ...meta.annotations, [FAILED_OPEN_POD_ANNOTATION]: 'true' };
      }
      return undefined;
    }
  }

  return {
    name: 'ImagePolicyWebhook',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(attrs) {
      const { subresource } = attrs;
      if (attrs.resource.group !== '' || attrs.resource.resource !== 'pods') return;
      if (subresource !== '' && subresource !== 'ephemeralcontainers') return;
      if (!obj(attrs.object))
        throw badRequest('Resource was marked with kind Pod but was unable to be converted');
      const status = await review(attrs, reviewSpec(attrs));
      if (!status) return;
      for (const [k, v] of Object.entries(status.auditAnnotations))
        attrs.addAnnotation?.(IMAGE_POLICY_AUDIT_PREFIX + k, v);
      if (status.allowed) return;
      const why = status.reason
        ? `image policy webhook backend denied one or more images: ${status.reason}`
        : 'one or more images rejected by webhook backend';
      throw forbidden({ group: '', resource: 'pods' }, attrs.name, why);
    },
  };
}

/** The registry's entry: configuration required, the backend's connection-config read at start-up. */
export const imagePolicyWebhookDefinition: AdmissionPluginDefinition = {
  prepare(config, flags) {
    if (!config)
      throw new ConfigFileError(
        'ImagePolicyWebhook: no config specified (give it imagePolicy in --admission-control-config-file)',
      );
    const parsed = parseImagePolicyConfig(config);
    let endpoint: ReviewEndpoint;
    try {
      endpoint = webhookEndpoint('admission-control-config-file', parsed.kubeConfigFile, flags.webhookDial);
    } catch (err) {
      throw new ConfigFileError(
        `${config.source}: imagePolicy.kubeConfigFile: ${errorText(err).replace(/^--[a-z-]+: /, '')}`,
      );
    }
    return () => imagePolicyWebhook(parsed, endpoint);
  },
};
