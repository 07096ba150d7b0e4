/**
 * Webhook admission end-to-end helpers: AdmissionReview answers, configuration bodies and a
 * wait for the server's watched copy of a new configuration to take effect.
 */
import type { TestApiServer, WebhookAnswer, WebhookCall } from '@keel/testing';
import type { Json } from './core.js';

export const MUTATING = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
export const VALIDATING = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';

/** The `request` of the AdmissionReview a webhook was sent. */
export function reviewRequest(call: WebhookCall): Json {
  return ((call.body as Json)['request'] ?? {}) as Json;
}

/** A v1 answer to `call`: allowed unless `response` says otherwise; a `patch` array is encoded. */
export function answer(call: WebhookCall, response: Json = {}, patch?: unknown[]): WebhookAnswer {
  const uid = reviewRequest(call)['uid'];
  return {
    body: {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: {
        uid,
        allowed: true,
        ...(patch
          ? { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') }
          : {}),
        ...response,
      },
    },
  };
}

/** One webhook for CREATEs of pods, only for objects labelled `test=<id>` unless `over` says otherwise. */
export function podWebhook(name: string, url: string, ca: string, id: string, over: Json = {}): Json {
  return {
    name,
    clientConfig: { url, caBundle: Buffer.from(ca).toString('base64') },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    objectSelector: { matchLabels: { test: id } },
    ...over,
  };
}

export function configBody(kind: 'Mutating' | 'Validating', name: string, webhooks: Json[]): Json {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks,
  };
}

/** Creates the configuration (201 expected). */
export async function createConfig(
  server: TestApiServer,
  kind: 'Mutating' | 'Validating',
  name: string,
  webhooks: Json[],
): Promise<void> {
  const res = await server.request('POST', kind === 'Mutating' ? MUTATING : VALIDATING, {
    body: configBody(kind, name, webhooks),
  });
  if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${res.text}`);
}

/**
 * Repeats `attempt` until `done` holds for its result (the plugins read a watched copy, which
 * takes a moment to see a new configuration); returns the last result.
 */
export async function eventually<T>(
  attempt: () => Promise<T>,
  done: (t: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const t = await attempt();
    if (done(t) || Date.now() > deadline) return t;
    await new Promise((r) => setTimeout(r, 50));
  }
}
