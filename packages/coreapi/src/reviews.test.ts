import { describe, expect, it } from 'vitest';
import { StatusError } from '@keel/apimachinery';
import { decodeSubjectAccessReview, subjectAccessReviewResponse } from './subject-access-review.js';
import { decodeTokenReview, tokenReviewResponse } from './token-review.js';

function failure(f: () => unknown): StatusError {
  try {
    f();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('no error');
}

const tr = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 't', audiences: ['https://kubernetes.default.svc'] } };

describe('TokenReview', () => {
  it.each<[string, Parameters<typeof tokenReviewResponse>[1], Record<string, unknown>]>([
    [
      'an authenticated token',
      { authenticated: true, user: { username: 'jane', uid: '42', groups: ['dev'], extra: { k: ['v'] } }, audiences: ['https://kubernetes.default.svc'] },
      { authenticated: true, user: { username: 'jane', uid: '42', groups: ['dev'], extra: { k: ['v'] } }, audiences: ['https://kubernetes.default.svc'] },
    ],
    ['an unknown token', { authenticated: false }, { user: {} }],
    ['an authenticator error', { authenticated: false, error: 'token expired' }, { user: {}, error: 'token expired' }],
  ])('%s', (_name, result, status) => {
    const review = decodeTokenReview(tr).object;
    expect(tokenReviewResponse(review, result)).toEqual({
      kind: 'TokenReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { token: 't', audiences: ['https://kubernetes.default.svc'] },
      status,
    });
  });

  it.each<[string, unknown, string, number, string]>([
    ['no token', { ...tr, spec: {} }, '', 400, 'token is required for TokenReview in authentication'],
    ['a namespaced request', tr, 'default', 400, 'namespace is not allowed on this type: default'],
    ['a wrong kind', { ...tr, kind: 'SelfSubjectReview' }, '', 400, 'SelfSubjectReview in version "v1" cannot be handled as a TokenReview: converting (k8s.io/api/authentication/v1) SelfSubjectReview to (k8s.io/kubernetes/pkg/apis/authentication) TokenReview: unknown conversion'],
  ])('refuses %s', (_name, body, ns, code, message) => {
    const err = failure(() => decodeTokenReview(body, ns));
    expect([err.code, err.message]).toEqual([code, message]);
  });
});

const sar = {
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SubjectAccessReview',
  spec: { resourceAttributes: { namespace: 'default', verb: 'list', group: 'events.k8s.io', version: 'v1', resource: 'events' }, user: 'jane', groups: ['dev'] },
};

describe('SubjectAccessReview', () => {
  it.each<[string, Parameters<typeof subjectAccessReviewResponse>[1], Record<string, unknown>]>([
    ['allow', { decision: 'Allow', reason: 'RBAC: allowed' }, { allowed: true, reason: 'RBAC: allowed' }],
    ['deny', { decision: 'Deny', reason: 'nope' }, { allowed: false, denied: true, reason: 'nope' }],
    ['no opinion with an evaluation error', { decision: 'NoOpinion', evaluationError: 'webhook down' }, { allowed: false, evaluationError: 'webhook down' }],
  ])('%s', (_name, decision, status) => {
    const out = subjectAccessReviewResponse(decodeSubjectAccessReview(sar).object, decision);
    expect(out['status']).toEqual(status);
    expect(out['spec']).toEqual(sar.spec);
  });

  it.each<[string, unknown, string]>([
    [
      'neither attributes nor subject',
      { spec: {} },
      '.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    ],
    [
      'both attribute kinds',
      { spec: { ...sar.spec, nonResourceAttributes: { path: '/livez', verb: 'get' } } },
      '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: {"Path":"/livez","Verb":"get"}: cannot be specified in combination with resourceAttributes',
    ],
    [
      'metadata',
      { metadata: { name: 'x' }, spec: sar.spec },
      '.authorization.k8s.io "" is invalid: metadata: Invalid value: {"name":"x","creationTimestamp":null}: must be empty',
    ],
  ])('refuses %s with a 422', (_name, body, message) => {
    const err = failure(() => decodeSubjectAccessReview(body));
    expect([err.code, err.message]).toEqual([422, message]);
  });
});
