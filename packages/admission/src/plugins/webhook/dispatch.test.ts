import type { StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import { TestPKI, TestWebhookServer, type TestCert, type WebhookCall } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionAttributes, AdmissionMetrics, Operation } from '../../index.js';
import { chainOf, depsOf } from '../../testing/index.js';

// The two plugins through the chain, against a real HTTPS webhook on loopback; configurations
// are given as the server's copies would hold them (defaults applied, validation bypassed, so
// a legacy sideEffects of Some can be tried).

type Json = Record<string, unknown>;

const pki = new TestPKI();
let ca: TestCert;
let webhook: TestWebhookServer;
let reply: (call: WebhookCall) => Json = () => ({});

beforeAll(async () => {
  ca = pki.ca('unit-webhook-ca');
  const serving = pki.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1'] });
  webhook = await TestWebhookServer.start(serving, (call) => {
    const uid = ((call.body as Json)['request'] as Json)['uid'];
    return {
      body: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid, allowed: true, ...reply(call) },
      },
    };
  });
});
afterAll(async () => {
  await webhook.stop();
  pki.cleanup();
});

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const patch = (ops: unknown[]) => ({ patchType: 'JSONPatch', patch: b64(ops) });

function config(name: string, hooks: Json[]): StoredObject {
  return { metadata: { name }, webhooks: hooks } as unknown as StoredObject;
}

function hook(name: string, over: Json = {}): Json {
  return {
    name,
    clientConfig: { url: webhook.url(`/${name}`), caBundle: Buffer.from(ca.certPem).toString('base64') },
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*' }],
    failurePolicy: 'Fail',
    namespaceSelector: {},
    objectSelector: {},
    sideEffects: 'None',
    timeoutSeconds: 5,
    admissionReviewVersions: ['v1'],
    reinvocationPolicy: 'Never',
    ...over,
  };
}

interface Recorded {
  attrs: AdmissionAttributes;
  annotations: Record<string, string>;
  warnings: string[];
}

function write(operation: Operation, over: Partial<AdmissionAttributes> = {}): Recorded {
  const annotations: Record<string, string> = {};
  const warnings: string[] = [];
  const attrs: AdmissionAttributes = {
    operation,
    resource: { group: '', version: 'v1', resource: 'configmaps' },
    subresource: '',
    kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    namespace: 'default',
    name: 'cm',
    object:
      operation === 'DELETE'
        ? undefined
        : ({ metadata: { name: 'cm', namespace: 'default' }, data: { a: '1' } } as StoredObject),
    oldObject: operation === 'CREATE' ? undefined : { metadata: { name: 'cm', namespace: 'default' } },
    user: { name: 'alice', uid: 'u1', groups: ['dev'], extra: {} },
    dryRun: false,
    addAnnotation: (k, v) => (annotations[k] = v),
    addWarning: (w) => warnings.push(w),
    ...over,
  };
  return { attrs, annotations, warnings };
}

const chainWith = (store: Record<string, StoredObject[]>) =>
  chainOf(
    ['MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook'],
    depsOf({ namespaces: [{ metadata: { name: 'default' } }], ...store }),
  );

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => (e as StatusError).status,
  );

describe('mutating webhooks', () => {
  it('apply JSON patches in order and record them for audit', async () => {
    reply = (call) =>
      call.path.startsWith('/first')
        ? patch([{ op: 'add', path: '/data/b', value: '2' }])
        : { warnings: ['careful'], auditAnnotations: { k: 'v' } };
    const chain = chainWith({
      mutatingwebhookconfigurations: [config('cfg', [hook('first.keel.test'), hook('second.keel.test')])],
    });
    const w = write('CREATE');
    await chain.admit(w.attrs);
    expect((w.attrs.object as unknown as Json)['data']).toEqual({ a: '1', b: '2' });
    expect(w.annotations).toEqual({
      'mutation.webhook.admission.k8s.io/round_0_index_0':
        '{"configuration":"cfg","webhook":"first.keel.test","mutated":true}',
      'patch.webhook.admission.k8s.io/round_0_index_0':
        '{"configuration":"cfg","webhook":"first.keel.test","patch":[{"op":"add","path":"/data/b","value":"2"}],"patchType":"JSONPatch"}',
      'mutation.webhook.admission.k8s.io/round_0_index_1':
        '{"configuration":"cfg","webhook":"second.keel.test","mutated":false}',
      'second.keel.test/k': 'v',
    });
    expect(w.warnings).toEqual(['careful']);
    // The second webhook saw what the first made.
    const seen = ((webhook.calls.at(-1)?.body as Json)['request'] as Json)['object'] as Json;
    expect(seen).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { a: '1', b: '2' } });
  });

  it('refuse a patch on a delete, and a patch that does not apply', async () => {
    reply = () => patch([{ op: 'replace', path: '/data/missing/x', value: '1' }]);
    const chain = chainWith({ mutatingwebhookconfigurations: [config('cfg', [hook('p.keel.test')])] });
    expect(await failure(chain.admit(write('DELETE').attrs))).toMatchObject({
      code: 500,
      message:
        'Internal error occurred: admission webhook "p.keel.test" attempted to modify the object, which is not supported for this operation',
    });
    expect(await failure(chain.admit(write('CREATE').attrs))).toMatchObject({
      code: 500,
      reason: 'InternalError',
    });
  });

  it('treat a wrong answer as a failure of the webhook, subject to failurePolicy', async () => {
    reply = () => ({ uid: 'not-the-one' });
    const fail = chainWith({ mutatingwebhookconfigurations: [config('cfg', [hook('uid.keel.test')])] });
    const status = await failure(fail.admit(write('CREATE').attrs));
    expect(status?.message).toMatch(
      /^Internal error occurred: failed calling webhook "uid\.keel\.test": received invalid webhook response: expected response\.uid="[0-9a-f-]+", got "not-the-one"$/,
    );
    const ignore = chainWith({
      mutatingwebhookconfigurations: [config('cfg', [hook('uid.keel.test', { failurePolicy: 'Ignore' })])],
    });
    const w = write('CREATE');
    await ignore.admit(w.attrs);
    expect(w.annotations['failed-open.mutation.webhook.admission.k8s.io/round_0_index_0']).toBe(
      'uid.keel.test',
    );
  });

  it('refuse a dry run a webhook with side effects would see', async () => {
    reply = () => ({});
    const before = webhook.calls.length;
    const chain = chainWith({
      mutatingwebhookconfigurations: [config('cfg', [hook('some.keel.test', { sideEffects: 'Some' })])],
    });
    expect(await failure(chain.admit(write('CREATE', { dryRun: true }).attrs))).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'admission webhook "some.keel.test" does not support dry run',
    });
    expect(webhook.calls.length).toBe(before);
  });

  it('leave writes to webhook configurations alone', async () => {
    const before = webhook.calls.length;
    const chain = chainWith({ mutatingwebhookconfigurations: [config('cfg', [hook('all.keel.test')])] });
    const resource = {
      group: 'admissionregistration.k8s.io',
      version: 'v1',
      resource: 'mutatingwebhookconfigurations',
    };
    await chain.admit(write('CREATE', { resource, namespace: '' }).attrs);
    expect(webhook.calls.length).toBe(before);
  });
});

describe('validating webhooks', () => {
  it('refuse with the first refusal in webhook order, and may not patch', async () => {
    reply = (call) =>
      call.path.startsWith('/one')
        ? { allowed: false, status: { message: 'one says no', code: 422 } }
        : call.path.startsWith('/two')
          ? { allowed: false }
          : {};
    const chain = chainWith({
      validatingwebhookconfigurations: [
        config('b', [hook('two.keel.test')]),
        config('a', [hook('one.keel.test')]),
      ],
    });
    expect(await failure(chain.validate(write('CREATE').attrs))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'admission webhook "one.keel.test" denied the request: one says no',
      code: 422,
    });
    reply = () => patch([{ op: 'add', path: '/data/c', value: '3' }]);
    const patching = chainWith({ validatingwebhookconfigurations: [config('a', [hook('patch.keel.test')])] });
    expect((await failure(patching.validate(write('CREATE').attrs)))?.message).toBe(
      'Internal error occurred: failed calling webhook "patch.keel.test": received invalid webhook response: validating webhook may not return response.patch',
    );
  });
});

describe('webhook metrics', () => {
  /** What the plugins report: `name type operation rejected` per call, and each rejection. */
  function recording() {
    const calls: string[] = [];
    const rejections: string[] = [];
    const ignore = { observe: () => undefined };
    const metrics: AdmissionMetrics = {
      step: ignore,
      controller: () => ignore,
      webhook: (name) => ({
        observe: (type, operation, rejected) => void calls.push(`${name} ${type} ${operation} ${rejected}`),
      }),
      webhookRejection: (name, type, operation, errorType, code) =>
        void rejections.push(`${name} ${type} ${operation} ${errorType} ${code}`),
    };
    const chain = (store: Record<string, StoredObject[]>) =>
      chainOf(['MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook'], {
        ...depsOf({ namespaces: [{ metadata: { name: 'default' } }], ...store }),
        metrics,
      });
    return { calls, rejections, chain };
  }

  it('time every call under the webhook name; a refusal is no_error with its code', async () => {
    reply = (call) => (call.path.startsWith('/no') ? { allowed: false, status: { code: 422 } } : {});
    const m = recording();
    await m
      .chain({ mutatingwebhookconfigurations: [config('m', [hook('yes.keel.test')])] })
      .admit(write('CREATE').attrs);
    const refusing = m.chain({ validatingwebhookconfigurations: [config('v', [hook('no.keel.test')])] });
    await failure(refusing.validate(write('UPDATE').attrs));
    expect(m.calls).toEqual(['yes.keel.test admit CREATE false', 'no.keel.test validating UPDATE true']);
    expect(m.rejections).toEqual(['no.keel.test validating UPDATE no_error 422']);
  });

  it('count a failed call as calling_webhook_error unless failurePolicy ignores it', async () => {
    reply = () => ({ uid: 'not-the-one' });
    const m = recording();
    await failure(
      m
        .chain({ mutatingwebhookconfigurations: [config('m', [hook('bad.keel.test')])] })
        .admit(write('CREATE').attrs),
    );
    await m
      .chain({
        mutatingwebhookconfigurations: [
          config('m', [hook('ignored.keel.test', { failurePolicy: 'Ignore' })]),
        ],
      })
      .admit(write('CREATE').attrs);
    expect(m.calls).toEqual(['bad.keel.test admit CREATE true', 'ignored.keel.test admit CREATE false']);
    expect(m.rejections).toEqual(['bad.keel.test admit CREATE calling_webhook_error 503']);
  });

  it('give an unreachable webhook the code each upstream dispatcher gives it', async () => {
    const m = recording();
    const gone = (name: string) =>
      hook(name, {
        clientConfig: {
          url: 'https://127.0.0.1:1/gone',
          caBundle: Buffer.from(ca.certPem).toString('base64'),
        },
      });
    await failure(
      m
        .chain({ mutatingwebhookconfigurations: [config('m', [gone('m.keel.test')])] })
        .admit(write('CREATE').attrs),
    );
    await failure(
      m
        .chain({ validatingwebhookconfigurations: [config('v', [gone('v.keel.test')])] })
        .validate(write('CREATE').attrs),
    );
    expect(m.rejections).toEqual([
      'm.keel.test admit CREATE calling_webhook_error 503',
      'v.keel.test validating CREATE calling_webhook_error 400',
    ]);
  });

  it("count the server's own failure (a patch it cannot apply) as apiserver_internal_error", async () => {
    reply = () => patch([{ op: 'replace', path: '/data/missing/x', value: '1' }]);
    const m = recording();
    await failure(
      m
        .chain({ mutatingwebhookconfigurations: [config('m', [hook('p.keel.test')])] })
        .admit(write('CREATE').attrs),
    );
    expect(m.calls).toEqual(['p.keel.test admit CREATE true']);
    expect(m.rejections).toEqual(['p.keel.test admit CREATE apiserver_internal_error 0']);
  });
});
