import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  freePort,
  TestApiServer,
  TestPKI,
  TestWebhookServer,
  type TestCert,
  type WebhookCall,
} from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podBody, podPath, unique, type Json } from './support/core.js';
import { answer, createConfig, eventually, podWebhook, reviewRequest } from './support/admission-webhooks.js';

// MutatingAdmissionWebhook and ValidatingAdmissionWebhook (both on by default) through the built
// daemon, against real HTTPS webhooks on loopback whose certificates the test makes. Every
// configuration selects only the pods of its own test (objectSelector test=<id>).

const pki = new TestPKI();
let ca: TestCert;
let serving: TestCert;
let proxyClient: TestCert;
let server: TestApiServer;
const hooks: TestWebhookServer[] = [];
let hanging: Server;

beforeAll(async () => {
  ca = pki.ca('admission-webhook-ca');
  serving = pki.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1'] });
  const clientCA = pki.ca('proxy-client-ca');
  proxyClient = pki.client(clientCA, 'keel-apiserver-proxy');
  server = await TestApiServer.start({
    args: [
      `--proxy-client-cert-file=${proxyClient.certFile}`,
      `--proxy-client-key-file=${proxyClient.keyFile}`,
    ],
  });
  await server.ready();
  // Accepts connections and never answers: a webhook that times out.
  hanging = createHttpsServer({ cert: serving.certPem, key: serving.keyPem }, () => undefined);
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  hanging.closeAllConnections();
  hanging.close();
  await server.stop();
  await Promise.all(hooks.map((h) => h.stop()));
  pki.cleanup();
});

async function startHook(
  respond: (call: WebhookCall) => ReturnType<typeof answer>,
): Promise<TestWebhookServer> {
  const hook = await TestWebhookServer.start(serving, respond);
  hooks.push(hook);
  return hook;
}

const createPod = (ns: string, name: string, labels: Json, query = '') =>
  server.request('POST', podPath(ns, undefined, undefined, query), { body: podBody(name, {}, { labels }) });

async function createNamespace(name: string, labels: Json = {}): Promise<void> {
  const res = await server.request('POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } },
  });
  expect(res.status, res.text).toBe(201);
}

const labelsOf = (obj: unknown) => ((obj as Json)['metadata'] as Json)['labels'] as Record<string, string>;

describe('MutatingAdmissionWebhook', () => {
  it('sends the wire form of the pod with the client certificate and applies the JSON patch', async () => {
    const id = unique('mutate');
    const hook = await startHook((call) =>
      answer(call, { warnings: ['mutated by test'], auditAnnotations: { seen: 'yes' } }, [
        { op: 'add', path: '/metadata/labels/mutated', value: 'yes' },
      ]),
    );
    await createConfig(server, 'Mutating', id, [
      podWebhook('label.keel.test', hook.url('/mutate'), ca.certPem, id),
    ]);
    const res = await eventually(
      () => createPod('default', unique('p'), { test: id }),
      (r) => labelsOf(r.json)['mutated'] === 'yes',
    );
    expect(res.status, res.text).toBe(201);
    expect(labelsOf(res.json)).toEqual({ test: id, mutated: 'yes' });
    expect(res.headers['warning']).toBe('299 - "mutated by test"');
    const call = hook.calls.at(-1) as WebhookCall;
    expect(call.path).toBe('/mutate?timeout=10s');
    expect(call.clientCN).toBe('keel-apiserver-proxy');
    expect((call.body as Json)['apiVersion']).toBe('admission.k8s.io/v1');
    const request = reviewRequest(call);
    expect(request).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'admin', groups: expect.arrayContaining(['system:masters']) as unknown },
      dryRun: false,
      oldObject: null,
    });
    // The versioned object: kind and apiVersion, the version's defaults.
    const object = request['object'] as Json;
    expect(object).toMatchObject({ apiVersion: 'v1', kind: 'Pod', spec: { restartPolicy: 'Always' } });
  });

  it('calls a v1beta1-only webhook with a v1beta1 review', async () => {
    const id = unique('beta');
    const hook = await startHook(() => ({
      body: {
        apiVersion: 'admission.k8s.io/v1beta1',
        kind: 'AdmissionReview',
        response: {
          allowed: true,
          patch: Buffer.from(
            JSON.stringify([{ op: 'add', path: '/metadata/labels/beta', value: 'yes' }]),
          ).toString('base64'),
        },
      },
    }));
    await createConfig(server, 'Mutating', id, [
      podWebhook('beta.keel.test', hook.url('/beta'), ca.certPem, id, {
        admissionReviewVersions: ['v1beta1'],
      }),
    ]);
    const res = await eventually(
      () => createPod('default', unique('p'), { test: id }),
      (r) => labelsOf(r.json)['beta'] === 'yes',
    );
    expect(labelsOf(res.json)['beta']).toBe('yes');
    expect((hook.calls.at(-1)?.body as Json)['apiVersion']).toBe('admission.k8s.io/v1beta1');
  });

  it('reinvokes an IfNeeded webhook once when a later webhook changed the object', async () => {
    const id = unique('reinvoke');
    const first = await startHook((call) => {
      const labels = labelsOf(reviewRequest(call)['object']);
      const seen = labels['second'] === 'yes' ? 'after-second' : 'before-second';
      return answer(call, {}, [{ op: 'add', path: '/metadata/labels/first', value: seen }]);
    });
    const second = await startHook((call) =>
      answer(call, {}, [{ op: 'add', path: '/metadata/labels/second', value: 'yes' }]),
    );
    await createConfig(server, 'Mutating', `a-${id}`, [
      podWebhook('first.keel.test', first.url('/first'), ca.certPem, id, { reinvocationPolicy: 'IfNeeded' }),
    ]);
    await createConfig(server, 'Mutating', `b-${id}`, [
      podWebhook('second.keel.test', second.url('/second'), ca.certPem, id),
    ]);
    const res = await eventually(
      () => createPod('default', unique('p'), { test: id }),
      (r) => labelsOf(r.json)['second'] === 'yes' && labelsOf(r.json)['first'] !== undefined,
    );
    expect(labelsOf(res.json)).toEqual({ test: id, first: 'after-second', second: 'yes' });
    const name = ((res.json as Json)['metadata'] as Json)['name'];
    const calls = first.calls.filter((c) => (reviewRequest(c)['name'] ?? '') === name);
    expect(calls).toHaveLength(2);
    expect(second.calls.filter((c) => reviewRequest(c)['name'] === name)).toHaveLength(1);
  });

  it('goes only to pods in namespaces its namespaceSelector selects', async () => {
    const id = unique('nssel');
    const [chosen, other] = [unique('chosen'), unique('other')];
    await createNamespace(chosen, { webhooks: 'on' });
    await createNamespace(other);
    const hook = await startHook((call) =>
      answer(call, {}, [{ op: 'add', path: '/metadata/labels/seen', value: 'yes' }]),
    );
    await createConfig(server, 'Mutating', id, [
      podWebhook('ns.keel.test', hook.url('/ns'), ca.certPem, id, {
        namespaceSelector: { matchLabels: { webhooks: 'on' } },
      }),
    ]);
    const inChosen = await eventually(
      () => createPod(chosen, unique('p'), { test: id }),
      (r) => labelsOf(r.json)['seen'] === 'yes',
    );
    expect(labelsOf(inChosen.json)['seen']).toBe('yes');
    const before = hook.calls.length;
    const inOther = await createPod(other, unique('p'), { test: id });
    expect(inOther.status).toBe(201);
    expect(labelsOf(inOther.json)['seen']).toBeUndefined();
    // Nor pods without the object selector's label.
    const unlabelled = await createPod(chosen, unique('p'), { test: 'someone-else' });
    expect(labelsOf(unlabelled.json)['seen']).toBeUndefined();
    expect(hook.calls.length).toBe(before);
  });
});

describe('ValidatingAdmissionWebhook', () => {
  it("refuses with the webhook's message and code", async () => {
    const id = unique('deny');
    const hook = await startHook((call) =>
      answer(call, { allowed: false, status: { message: 'no pods today', code: 403, reason: 'Forbidden' } }),
    );
    await createConfig(server, 'Validating', id, [
      podWebhook('deny.keel.test', hook.url('/deny'), ca.certPem, id),
    ]);
    const res = await eventually(
      () => createPod('default', unique('p'), { test: id }),
      (r) => r.status !== 201,
    );
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'admission webhook "deny.keel.test" denied the request: no pods today',
      reason: 'Forbidden',
      code: 403,
    });
  });

  it('refuses with 400 when the webhook gives no code', async () => {
    const id = unique('deny400');
    const hook = await startHook((call) => answer(call, { allowed: false }));
    await createConfig(server, 'Validating', id, [
      podWebhook('bare.keel.test', hook.url('/bare'), ca.certPem, id),
    ]);
    const res = await eventually(
      () => createPod('default', unique('p'), { test: id }),
      (r) => r.status !== 201,
    );
    expect(res.status).toBe(400);
    expect((res.json as Json)['message']).toBe(
      'admission webhook "bare.keel.test" denied the request without explanation',
    );
  });
});

describe('failures', () => {
  it('failurePolicy Fail turns an unreachable webhook into a 500; Ignore lets the write through', async () => {
    const port = await freePort();
    const dead = `https://127.0.0.1:${port}/dead`;
    const failId = unique('fail');
    await createConfig(server, 'Validating', failId, [
      podWebhook('dead.keel.test', dead, ca.certPem, failId),
    ]);
    const res = await eventually(
      () => createPod('default', unique('p'), { test: failId }),
      (r) => r.status !== 201,
    );
    expect(res.status).toBe(500);
    const message = `failed calling webhook "dead.keel.test": failed to call webhook: Post "${dead}?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`;
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Internal error occurred: ${message}`,
      reason: 'InternalError',
      details: { causes: [{ message }] },
      code: 500,
    });

    const ignoreId = unique('ignore');
    const live = await startHook((call) =>
      answer(call, {}, [{ op: 'add', path: '/metadata/labels/live', value: 'yes' }]),
    );
    await createConfig(server, 'Mutating', ignoreId, [
      podWebhook('dead.keel.test', dead, ca.certPem, ignoreId, { failurePolicy: 'Ignore' }),
      podWebhook('live.keel.test', live.url('/live'), ca.certPem, ignoreId),
    ]);
    const ok = await eventually(
      () => createPod('default', unique('p'), { test: ignoreId }),
      (r) => labelsOf(r.json)['live'] === 'yes',
    );
    expect(ok.status, ok.text).toBe(201);
  });

  it('gives up on a webhook after its timeoutSeconds', async () => {
    const id = unique('timeout');
    const url = `https://127.0.0.1:${(hanging.address() as AddressInfo).port}/slow`;
    await createConfig(server, 'Validating', id, [
      podWebhook('slow.keel.test', url, ca.certPem, id, { timeoutSeconds: 1 }),
    ]);
    const res = await eventually(
      () => createPod('default', unique('p'), { test: id }),
      (r) => r.status !== 201,
    );
    expect(res.status).toBe(500);
    expect((res.json as Json)['message']).toBe(
      `Internal error occurred: failed calling webhook "slow.keel.test": failed to call webhook: Post "${url}?timeout=1s": context deadline exceeded`,
    );
  });

  it('names a missing Service in the failure of a webhook that references it', async () => {
    const id = unique('service');
    await createConfig(server, 'Validating', id, [
      podWebhook('svc.keel.test', '', ca.certPem, id, {
        clientConfig: { service: { namespace: 'default', name: 'hook' } },
      }),
    ]);
    const res = await eventually(
      () => createPod('default', unique('p'), { test: id }),
      (r) => r.status !== 201,
    );
    expect(res.status).toBe(500);
    expect((res.json as Json)['message']).toBe(
      'Internal error occurred: failed calling webhook "svc.keel.test": failed to call webhook: Post "https://hook.default.svc:443/?timeout=10s": service "hook" not found',
    );
  });

  it('does not trust a webhook whose certificate the caBundle does not sign', async () => {
    const id = unique('untrusted');
    const hook = await startHook((call) => answer(call));
    const otherCA = pki.ca('other-ca');
    await createConfig(server, 'Validating', id, [
      podWebhook('untrusted.keel.test', hook.url('/x'), otherCA.certPem, id),
    ]);
    const res = await eventually(
      () => createPod('default', unique('p'), { test: id }),
      (r) => r.status !== 201,
    );
    expect(res.status).toBe(500);
    expect((res.json as Json)['message']).toContain(
      'tls: failed to verify certificate: x509: certificate signed by unknown authority',
    );
    expect(hook.calls).toHaveLength(0);
  });
});

describe('dry run', () => {
  it('sends dryRun to a NoneOnDryRun webhook and stores nothing', async () => {
    const id = unique('dryrun');
    const hook = await startHook((call) =>
      answer(call, {}, [
        { op: 'add', path: '/metadata/labels/dry', value: String(reviewRequest(call)['dryRun']) },
      ]),
    );
    await createConfig(server, 'Mutating', id, [
      podWebhook('dry.keel.test', hook.url('/dry'), ca.certPem, id, { sideEffects: 'NoneOnDryRun' }),
    ]);
    const name = unique('p');
    const res = await eventually(
      () => createPod('default', name, { test: id }, 'dryRun=All'),
      (r) => labelsOf(r.json)['dry'] === 'true',
    );
    expect(labelsOf(res.json)['dry']).toBe('true');
    expect((reviewRequest(hook.calls.at(-1) as WebhookCall)['options'] as Json)['dryRun']).toEqual(['All']);
    expect((await server.request('GET', podPath('default', name))).status).toBe(404);
  });
});
