import type { Attributes } from '@keel/auth';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AlwaysAllowPathsAuthorizer,
  BOTH_ALLOWED_AND_DENIED,
  decisionFromStatus,
  SUBJECT_ACCESS_REVIEWS_PATH,
  SubjectAccessReviewAuthorizer,
  subjectAccessReviewRequest,
  subjectAccessReviewSpec,
} from './sar-authorizer.js';
import { reviewAnswer, ReviewStub } from './testing/review-stub.js';

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

describe('subjectAccessReviewSpec', () => {
  it('asks about the path and verb for the user as authenticated, empty fields left out', () => {
    const spec = subjectAccessReviewSpec(attrs('/metrics'));
    expect(spec).toEqual({
      nonResourceAttributes: { path: '/metrics', verb: 'get' },
      user: 'alice',
      groups: ['dev', 'system:authenticated'],
    });
    // Go's field order, which the cache key (the spec's JSON) also follows.
    expect(JSON.stringify(subjectAccessReviewRequest(spec))).toBe(
      '{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":' +
        '{"nonResourceAttributes":{"path":"/metrics","verb":"get"},"user":"alice","groups":["dev","system:authenticated"]}}',
    );
  });

  it('carries uid and extra when the user has them', () => {
    const spec = subjectAccessReviewSpec(
      attrs('/metrics', {
        uid: 'u1',
        extra: { 'authentication.kubernetes.io/credential-id': ['X509SHA256=ab'] },
      }),
    );
    expect(spec).toMatchObject({
      uid: 'u1',
      extra: { 'authentication.kubernetes.io/credential-id': ['X509SHA256=ab'] },
    });
  });

  it('asks about the resource for a resource request', () => {
    const a: Attributes = {
      ...attrs(''),
      isResourceRequest: true,
      verb: 'list',
      namespace: 'default',
      apiGroup: 'events.k8s.io',
      apiVersion: 'v1',
      resource: 'events',
    };
    expect(subjectAccessReviewSpec(a)).toMatchObject({
      resourceAttributes: {
        namespace: 'default',
        verb: 'list',
        group: 'events.k8s.io',
        version: 'v1',
        resource: 'events',
      },
    });
  });
});

describe('decisionFromStatus', () => {
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
  ])('%j is %j', (status, decision) => {
    expect(decisionFromStatus(status)).toEqual(decision);
  });
});

describe('AlwaysAllowPathsAuthorizer', () => {
  const a = new AlwaysAllowPathsAuthorizer(['/healthz', '/livez/*', 'readyz']);
  it.each([
    ['/healthz', 'allow'],
    ['/healthz/ping', 'noOpinion'],
    ['/livez/ping', 'allow'],
    ['/livez', 'noOpinion'],
    ['/readyz', 'allow'],
    ['/metrics', 'noOpinion'],
  ])('%s: %s', async (path, decision) => {
    expect((await a.authorize(attrs(path))).decision).toBe(decision);
  });

  it('has no opinion on resource requests', async () => {
    expect((await a.authorize({ ...attrs('/healthz'), isResourceRequest: true })).decision).toBe('noOpinion');
  });

  it('allows everything with *', async () => {
    expect((await new AlwaysAllowPathsAuthorizer(['/*']).authorize(attrs('/anything'))).decision).toBe(
      'allow',
    );
  });
});

describe('SubjectAccessReviewAuthorizer (over HTTP)', () => {
  let stub: ReviewStub | undefined;
  afterEach(async () => {
    await stub?.stop();
    stub = undefined;
  });
  const FAST = { backoff: { initialMs: 1, factor: 1, jitter: 0, steps: 2 } };

  it('POSTs the review and caches allowed and refused answers for their own ttls', async () => {
    let now = 0;
    stub = await ReviewStub.start((req) => {
      const spec = (req.body as { spec: { user: string } }).spec;
      return reviewAnswer(
        req,
        spec.user === 'alice' ? { allowed: true } : { allowed: false, reason: 'No policy matched.' },
      );
    });
    const authz = new SubjectAccessReviewAuthorizer(stub.client(), {
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
    expect(stub.received.map((r) => [r.method, r.path])).toEqual([
      ['POST', SUBJECT_ACCESS_REVIEWS_PATH],
      ['POST', SUBJECT_ACCESS_REVIEWS_PATH],
    ]);
    expect(stub.received[0]?.body).toEqual(
      subjectAccessReviewRequest(subjectAccessReviewSpec(attrs('/metrics'))),
    );

    now = 99;
    await authz.authorize(attrs('/metrics'));
    await authz.authorize(attrs('/metrics', { name: 'bob' }));
    expect(stub.received).toHaveLength(2);
    now = 100; // the refusal has expired, the allow has not
    await authz.authorize(attrs('/metrics'));
    await authz.authorize(attrs('/metrics', { name: 'bob' }));
    expect(stub.received).toHaveLength(3);
    // Another verb is another question.
    await authz.authorize(attrs('/metrics', {}, 'post'));
    expect(stub.received).toHaveLength(4);
  });

  it('has no opinion, with the failure as its error, when the server cannot answer; nothing is cached', async () => {
    stub = await ReviewStub.start(() => ({ status: 503, body: '' }));
    const authz = new SubjectAccessReviewAuthorizer(stub.client(), {
      allowTtlMs: 1000,
      denyTtlMs: 1000,
      ...FAST,
    });
    const d = await authz.authorize(attrs('/metrics'));
    expect(d.decision).toBe('noOpinion');
    expect(d.error).toContain('the server is currently unable to handle the request');
    await authz.authorize(attrs('/metrics'));
    expect(stub.received).toHaveLength(2); // 503 is not retried by kube's DefaultShouldRetry
  });
});
