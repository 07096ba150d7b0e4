import { join } from 'node:path';
import {
  reviewWith,
  TestApiServer,
  TestPKI,
  TestWebhookServer,
  writeWebhookConfig,
  type WebhookCall,
} from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, newNamespace, podBody, podPath } from './support/core.js';

const pki = new TestPKI();
const ca = pki.ca('image-policy-ca');
const serving = pki.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1'] });

function admissionConfig(name: string, imagePolicy: Record<string, unknown>): string {
  return pki.file(
    name,
    JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AdmissionConfiguration',
      plugins: [{ name: 'ImagePolicyWebhook', configuration: { imagePolicy } }],
    }),
  );
}

function startWith(configFile: string): Promise<TestApiServer> {
  return TestApiServer.start({
    args: ['--enable-admission-plugins=ImagePolicyWebhook', `--admission-control-config-file=${configFile}`],
  });
}

describe('ImagePolicyWebhook admission (memory store)', () => {
  let hook: TestWebhookServer;
  let server: TestApiServer | undefined;
  let failOpen: TestApiServer | undefined;
  beforeAll(async () => {
    hook = await TestWebhookServer.start(serving, (call: WebhookCall) => {
      const images = (call.body as { spec: { containers: { image: string }[] } }).spec.containers.map(
        (c) => c.image,
      );
      return reviewWith(
        call,
        images.some((i) => i.startsWith('untrusted.example/'))
          ? { allowed: false, reason: 'images from untrusted.example are not allowed' }
          : { allowed: true },
      );
    });
    const kubeConfigFile = writeWebhookConfig(
      join(pki.dir, 'backend.json'),
      hook.url('/imagereview'),
      ca.certPem,
    );
    server = await startWith(admissionConfig('admission.json', { kubeConfigFile, denyTTL: 5 }));
    const down = writeWebhookConfig(
      join(pki.dir, 'down.json'),
      'https://127.0.0.1:1/imagereview',
      ca.certPem,
    );
    failOpen = await startWith(
      admissionConfig('fail-open.json', { kubeConfigFile: down, defaultAllow: true }),
    );
    await Promise.all([server.ready(), failOpen.ready()]);
  });
  afterAll(async () => {
    await server?.stop();
    await failOpen?.stop();
    await hook?.stop();
    pki.cleanup();
  });

  it('a backend on 127.0.0.1 denies an image: the real refusal message', async () => {
    const ns = await newNamespace(server!, 'img');
    const res = await server!.request('POST', podPath(ns), {
      body: podBody('x', { containers: [{ name: 'c', image: 'untrusted.example/miner:1' }] }),
    });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({
      reason: 'Forbidden',
      message:
        'pods "x" is forbidden: image policy webhook backend denied one or more images: images from untrusted.example are not allowed',
    });
    await create(
      server!,
      podPath(ns),
      podBody('ok', { containers: [{ name: 'c', image: 'registry.example/app:1' }] }),
    );
    expect(hook.calls.map((c) => (c.body as { spec: { namespace: string } }).spec.namespace)).toEqual([
      ns,
      ns,
    ]);
  });

  it('defaultAllow admits pods while the backend is down', async () => {
    const ns = await newNamespace(failOpen!, 'open');
    const pod = await create(
      failOpen!,
      podPath(ns),
      podBody('x', { containers: [{ name: 'c', image: 'untrusted.example/miner:1' }] }),
    );
    expect(pod['metadata']).toMatchObject({
      annotations: { 'alpha.image-policy.k8s.io/failed-open': 'true' },
    });
  });
});
