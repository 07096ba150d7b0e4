import { join } from 'node:path';
import type { StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import { reviewWith, TestPKI, TestWebhookServer, writeWebhookConfig, type WebhookCall } from '@keel/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../index.js';
import { chainOf, depsOf } from '../testing/index.js';

const pki = new TestPKI();
const ca = pki.ca('image-policy-ca');
const serving = pki.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1'] });
afterAll(() => pki.cleanup());

let n = 0;
function admissionFile(imagePolicy: Record<string, unknown>): string {
  return pki.file(
    `admission-${n++}.json`,
    JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AdmissionConfiguration',
      plugins: [{ name: 'ImagePolicyWebhook', configuration: { imagePolicy } }],
    }),
  );
}

const pod = (images: string[], annotations: Record<string, string> = {}): StoredObject =>
  ({
    metadata: { name: 'x', namespace: 'team', annotations },
    spec: {
      containers: images.map((image, i) => ({ name: `c${i}`, image })),
      initContainers: [{ name: 'init', image: 'init:1' }],
    },
  }) as StoredObject;

function attrs(
  object: StoredObject,
  annotations: Record<string, string>,
  over: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  return {
    operation: 'CREATE',
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'team',
    name: 'x',
    object,
    oldObject: undefined,
    user: { name: 'alice', uid: '', groups: [], extra: {} },
    dryRun: false,
    addAnnotation: (k, v) => (annotations[k] = v),
    ...over,
  };
}

async function refusal(chain: ReturnType<typeof chainOf>, a: AdmissionAttributes) {
  try {
    await chain.validate(a);
    return undefined;
  } catch (err) {
    const s = (err as StatusError).status;
    return { code: s.code, message: s.message };
  }
}

describe('ImagePolicyWebhook', () => {
  let hook: TestWebhookServer | undefined;
  afterEach(async () => {
    await hook?.stop();
    hook = undefined;
  });

  const deny = (call: WebhookCall) => {
    const spec = (call.body as { spec: { containers: { image: string }[] } }).spec;
    const bad = spec.containers.some((c) => c.image.startsWith('evil/'));
    return reviewWith(
      call,
      bad
        ? { allowed: false, reason: 'evil/* is not allowed', auditAnnotations: { rule: 'no-evil' } }
        : { allowed: true },
    );
  };

  it('sends the images, the policy annotations and the namespace; refuses what the backend denies', async () => {
    hook = await TestWebhookServer.start(serving, deny);
    const kubeConfigFile = writeWebhookConfig(join(pki.dir, 'hook-1.json'), hook.url('/review'), ca.certPem);
    const chain = chainOf(['ImagePolicyWebhook'], depsOf({}), {
      configFile: admissionFile({ kubeConfigFile }),
    });
    const seen: Record<string, string> = {};
    const bad = pod(['evil/miner:1'], { 'mycluster.image-policy.k8s.io/ticket': '1234', other: 'x' });
    expect(await refusal(chain, attrs(bad, seen))).toEqual({
      code: 403,
      message:
        'pods "x" is forbidden: image policy webhook backend denied one or more images: evil/* is not allowed',
    });
    expect(seen).toEqual({ 'imagepolicywebhook.image-policy.k8s.io/rule': 'no-evil' });
    expect(hook.calls[0]?.path).toBe('/review');
    expect(hook.calls[0]?.body).toMatchObject({
      apiVersion: 'imagepolicy.k8s.io/v1alpha1',
      kind: 'ImageReview',
      spec: {
        containers: [{ image: 'evil/miner:1' }, { image: 'init:1' }],
        annotations: { 'mycluster.image-policy.k8s.io/ticket': '1234' },
        namespace: 'team',
      },
    });
    expect(await refusal(chain, attrs(pod(['good/app:1']), {}))).toBeUndefined();
  });

  it('caches answers: the same spec is not sent twice within its ttl', async () => {
    hook = await TestWebhookServer.start(serving, deny);
    const kubeConfigFile = writeWebhookConfig(join(pki.dir, 'hook-2.json'), hook.url('/review'), ca.certPem);
    const chain = chainOf(['ImagePolicyWebhook'], depsOf({}), {
      configFile: admissionFile({ kubeConfigFile, denyTTL: 60 }),
    });
    expect((await refusal(chain, attrs(pod(['evil/a']), {})))?.code).toBe(403);
    expect((await refusal(chain, attrs(pod(['evil/a']), {})))?.code).toBe(403);
    expect(await refusal(chain, attrs(pod(['ok/a']), {}))).toBeUndefined();
    expect(await refusal(chain, attrs(pod(['ok/a']), {}))).toBeUndefined();
    expect(hook.calls).toHaveLength(2);
  });

  it('reviews only the new ephemeral containers on the ephemeralcontainers subresource, and ignores status', async () => {
    hook = await TestWebhookServer.start(serving, deny);
    const kubeConfigFile = writeWebhookConfig(join(pki.dir, 'hook-3.json'), hook.url('/review'), ca.certPem);
    const chain = chainOf(['ImagePolicyWebhook'], depsOf({}), {
      configFile: admissionFile({ kubeConfigFile }),
    });
    const withDebug = pod(['good/app']);
    (withDebug as unknown as { spec: Record<string, unknown> }).spec['ephemeralContainers'] = [
      { name: 'dbg', image: 'evil/shell' },
    ];
    expect(
      (
        await refusal(
          chain,
          attrs(withDebug, {}, { operation: 'UPDATE', subresource: 'ephemeralcontainers' }),
        )
      )?.code,
    ).toBe(403);
    expect(hook.calls[0]?.body).toMatchObject({ spec: { containers: [{ image: 'evil/shell' }] } });
    expect(
      await refusal(chain, attrs(pod(['evil/x']), {}, { operation: 'UPDATE', subresource: 'status' })),
    ).toBeUndefined();
    expect(hook.calls).toHaveLength(1);
  });

  it('a backend that cannot be reached: refused unless defaultAllow, which records failed-open', async () => {
    const kubeConfigFile = writeWebhookConfig(
      join(pki.dir, 'hook-down.json'),
      'https://127.0.0.1:1/review',
      ca.certPem,
    );
    const closed = chainOf(['ImagePolicyWebhook'], depsOf({}), {
      configFile: admissionFile({ kubeConfigFile }),
    });
    const r = await refusal(closed, attrs(pod(['good/app']), {}));
    expect(r?.code).toBe(403);
    expect(r?.message).toMatch(/^pods "x" is forbidden: /);
    const open = chainOf(['ImagePolicyWebhook'], depsOf({}), {
      configFile: admissionFile({ kubeConfigFile, defaultAllow: true }),
    });
    const seen: Record<string, string> = {};
    const admitted = pod(['good/app']);
    expect(await refusal(open, attrs(admitted, seen))).toBeUndefined();
    expect(admitted.metadata.annotations?.['alpha.image-policy.k8s.io/failed-open']).toBe('true');
    expect(seen['imagepolicywebhook.image-policy.k8s.io/failed-open']).toBe('true');
    expect(Object.keys(seen).sort()).toEqual(['imagepolicywebhook.image-policy.k8s.io/failed-open']);
  });

  it('an answer that is not an ImageReview is a backend failure', async () => {
    hook = await TestWebhookServer.start(serving, () => ({ body: { kind: 'Status', apiVersion: 'v1' } }));
    const kubeConfigFile = writeWebhookConfig(join(pki.dir, 'hook-4.json'), hook.url('/review'), ca.certPem);
    const chain = chainOf(['ImagePolicyWebhook'], depsOf({}), {
      configFile: admissionFile({ kubeConfigFile }),
    });
    expect((await refusal(chain, attrs(pod(['good/app']), {})))?.code).toBe(403);
  });

  it('checks its configuration at start-up: required, kube bounds, a readable kubeconfig', () => {
    expect(() => chainOf(['ImagePolicyWebhook'], depsOf({}))).toThrow(
      'ImagePolicyWebhook: no config specified',
    );
    const kubeConfigFile = writeWebhookConfig(
      join(pki.dir, 'hook-5.json'),
      'https://127.0.0.1:1/review',
      ca.certPem,
    );
    const tooLong = admissionFile({ kubeConfigFile, allowTTL: 3600, retryBackoff: 400000 });
    expect(() => chainOf(['ImagePolicyWebhook'], depsOf({}), { configFile: tooLong })).toThrow(
      `admission control config file ${tooLong}: plugins[0].configuration: imagePolicy.allowTTL: valid value is between 1s and 30m0s, got 1h0m0s; imagePolicy.retryBackoff: valid value is between 1ns and 5m0s, got 6m40s`,
    );
    const one = admissionFile({ kubeConfigFile, denyTTL: 1 });
    expect(() => chainOf(['ImagePolicyWebhook'], depsOf({}), { configFile: one })).toThrow(
      'imagePolicy.denyTTL: valid value is between 1s and 30m0s, got 1s',
    );
    const missing = admissionFile({ kubeConfigFile: join(pki.dir, 'nope.json') });
    expect(() => chainOf(['ImagePolicyWebhook'], depsOf({}), { configFile: missing })).toThrow(
      /plugins\[0\]\.configuration: imagePolicy\.kubeConfigFile: /,
    );
    const unknown = admissionFile({ kubeConfigFile, allowTtl: 5 });
    expect(() => chainOf(['ImagePolicyWebhook'], depsOf({}), { configFile: unknown })).toThrow(
      'imagePolicy.allowTtl: unknown field',
    );
  });
});
