import { join } from 'node:path';
import { reviewWith, TestPKI, TestWebhookServer, writeWebhookConfig, type WebhookCall } from '@keel/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { webhookEndpoint } from '../../webhook/endpoint.js';
import type { Attributes } from '../types.js';
import {
  BOTH_ALLOWED_AND_DENIED,
  decisionFromStatus,
  subjectAccessReviewRequest,
  subjectAccessReviewSpec,
} from './subject-access-review.js';
import { WebhookAuthorizer } from './webhook-authorizer.js';

const FAST = { backoff: { initialMs: 1, factor: 1, jitter: 0, steps: 2 } };
const pki = new TestPKI();
const ca = pki.ca('authz-webhook-ca');
const serving = pki.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1'] });
afterAll(() => pki.cleanup());

function attrs(path: string, user: Partial<Attributes['user']> = {}, verb = 'get'): Attributes {
  return {
    user: { name: 'alice', uid: '', groups: ['dev', 'system:authenticated'], extra: {}, ...user },
    verb,
    isResourceRequest: false,
    path,
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

const podList: Attributes = {
  ...attrs('/api/v1/namespaces/default/pods'),
  isResourceRequest: true,
  verb: 'list',
  namespace: 'default',
  apiVersion: 'v1',
  resource: 'pods',
};

describe('subjectAccessReviewSpec / subjectAccessReviewRequest', () => {
  it('asks about the path and verb for the user as authenticated, empty fields left out, in Go order', () => {
    const spec = subjectAccessReviewSpec(attrs('/metrics'));
    expect(JSON.stringify(subjectAccessReviewRequest(spec))).toBe(
      '{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":' +
        '{"nonResourceAttributes":{"path":"/metrics","verb":"get"},"user":"alice","groups":["dev","system:authenticated"]}}',
    );
  });

  it('names the groups `group` in v1beta1', () => {
    const spec = subjectAccessReviewSpec({
      ...podList,
      user: { ...podList.user, uid: 'u1', extra: { k: ['v'] } },
    });
    expect(JSON.stringify(subjectAccessReviewRequest(spec, 'v1beta1'))).toBe(
      '{"apiVersion":"authorization.k8s.io/v1beta1","kind":"SubjectAccessReview","spec":' +
        '{"resourceAttributes":{"namespace":"default","verb":"list","version":"v1","resource":"pods"},' +
        '"user":"alice","group":["dev","system:authenticated"],"extra":{"k":["v"]},"uid":"u1"}}',
    );
  });

  it.each([
    [
      { allowed: true, denied: false, reason: '' },
      { decision: 'allow', reason: '' },
    ],
    [
      { allowed: false, denied: true, reason: 'no' },
      { decision: 'deny', reason: 'no' },
    ],
    [
      { allowed: false, denied: false, reason: 'No policy matched.' },
      { decision: 'noOpinion', reason: 'No policy matched.' },
    ],
    [
      { allowed: true, denied: true, reason: '' },
      { decision: 'deny', reason: '', error: BOTH_ALLOWED_AND_DENIED },
    ],
  ])('status %j is %j', (status, decision) => {
    expect(decisionFromStatus(status)).toEqual(decision);
  });
});

describe('WebhookAuthorizer (over HTTPS, from a connection-config)', () => {
  let hook: TestWebhookServer | undefined;
  afterEach(async () => {
    await hook?.stop();
    hook = undefined;
  });
  const start = async (answer: (call: WebhookCall) => { status?: number; body: unknown }) => {
    hook = await TestWebhookServer.start(serving, answer);
    const file = writeWebhookConfig(join(pki.dir, 'authz-hook.json'), hook.url('/authorize'), ca.certPem);
    return webhookEndpoint('authorization-webhook-config-file', file);
  };

  it('caches allowed and refused answers for their own ttls', async () => {
    let now = 1_000_000;
    const endpoint = await start((call) => {
      const spec = (call.body as { spec: { user: string } }).spec;
      return reviewWith(
        call,
        spec.user === 'alice' ? { allowed: true } : { allowed: false, reason: 'No policy matched.' },
      );
    });
    const authz = new WebhookAuthorizer(endpoint, {
      version: 'v1beta1',
      allowTtlMs: 1000,
      denyTtlMs: 100,
      now: () => now,
      ...FAST,
    });
    expect(await authz.authorize(attrs('/metrics'))).toEqual({ decision: 'allow', reason: '' });
    expect(await authz.authorize(attrs('/metrics', { name: 'bob' }))).toEqual({
      decision: 'noOpinion',
      reason: 'No policy matched.',
    });
    expect(hook?.calls.map((c) => c.path)).toEqual(['/authorize', '/authorize']);
    expect(hook?.calls[0]?.body).toEqual(
      subjectAccessReviewRequest(subjectAccessReviewSpec(attrs('/metrics')), 'v1beta1'),
    );

    now += 100;
    await authz.authorize(attrs('/metrics'));
    await authz.authorize(attrs('/metrics', { name: 'bob' }));
    expect(hook?.calls).toHaveLength(2);
    now += 1; // the refusal has expired, the allow has not
    await authz.authorize(attrs('/metrics'));
    await authz.authorize(attrs('/metrics', { name: 'bob' }));
    expect(hook?.calls).toHaveLength(3);
    await authz.authorize(attrs('/metrics', {}, 'post')); // another verb is another question
    expect(hook?.calls).toHaveLength(4);
  });

  it('a denial is a Deny with its reason', async () => {
    const endpoint = await start((call) =>
      reviewWith(call, { allowed: false, denied: true, reason: 'banned' }),
    );
    const authz = new WebhookAuthorizer(endpoint, { allowTtlMs: 0, denyTtlMs: 0, ...FAST });
    expect(await authz.authorize(podList)).toEqual({ decision: 'deny', reason: 'banned' });
  });

  it.each([
    ['down', undefined],
    ['answering 503', { status: 503, body: '' }],
    ['answering garbage', { body: '<html>' }],
  ])(
    'a webhook %s gives no opinion with the failure as its error, and nothing is cached',
    async (what, answer) => {
      const endpoint = await start(() => answer ?? { body: {} });
      if (what === 'down') {
        await hook?.stop();
        hook = undefined;
      }
      const authz = new WebhookAuthorizer(endpoint, { allowTtlMs: 60_000, denyTtlMs: 60_000, ...FAST });
      const d = await authz.authorize(attrs('/metrics'));
      expect(d.decision).toBe('noOpinion');
      expect(d.error).toEqual(expect.any(String));
      if (hook) {
        await authz.authorize(attrs('/metrics'));
        expect(hook.calls).toHaveLength(2);
      }
    },
  );
});

describe('WebhookAuthorizer.rulesFor', () => {
  it('cannot list rules: incomplete, with the evaluation error kube gives', async () => {
    const endpoint = webhookEndpoint(
      'authorization-webhook-config-file',
      writeWebhookConfig(join(pki.dir, 'rules-hook.json'), 'https://127.0.0.1:1/authorize', ca.certPem),
    );
    const authz = new WebhookAuthorizer(endpoint, { allowTtlMs: 0, denyTtlMs: 0 });
    expect(await authz.rulesFor(attrs('/').user, 'default')).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'webhook authorizer does not support user rule resolution',
    });
  });
});
