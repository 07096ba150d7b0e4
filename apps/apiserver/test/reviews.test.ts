import { writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApiServer, USER_TOKEN } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from './support/core.js';

const TOKEN_REVIEWS = '/apis/authentication.k8s.io/v1/tokenreviews';
const SARS = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

const tokenReview = (token: string, extra: Json = {}) => ({
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'TokenReview',
  spec: { token, ...extra },
});

function sar(user: string, groups: string[], attributes: Json): Json {
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: { user, groups, ...attributes },
  };
}

const podAttrs = (verb: string, namespace = 'default') => ({
  resourceAttributes: { namespace, verb, version: 'v1', resource: 'pods' },
});

describe('TokenReview', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('authenticates a token with the server own authenticators and answers 201', async () => {
    const r = await server.request('POST', TOKEN_REVIEWS, { body: tokenReview('admin-token') });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      kind: 'TokenReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { token: 'admin-token' },
      status: {
        authenticated: true,
        user: { username: 'admin', uid: 'uid-admin', groups: ['system:masters', 'system:authenticated'] },
      },
    });
    const user = await server.request('POST', TOKEN_REVIEWS, { body: tokenReview(USER_TOKEN) });
    expect((user.json as Json)['status']).toMatchObject({
      authenticated: true,
      user: { username: 'alice', groups: ['dev', 'qa', 'system:authenticated'] },
    });
  });

  it('reports an unknown token as not authenticated, with the authenticator error', async () => {
    const r = await server.request('POST', TOKEN_REVIEWS, { body: tokenReview('not-a-token') });
    expect(r.status).toBe(201);
    expect((r.json as Json)['status']).toEqual({ user: {}, error: 'invalid bearer token' });
  });

  it('never answers with the anonymous fallback: a token the header parser would drop or split is not authenticated', async () => {
    // The server runs with --anonymous-auth (the default): a request without credentials is
    // system:anonymous, but a review is about the token alone.
    for (const token of [' ', ' admin-token', 'admin-token extra']) {
      const r = await server.request('POST', TOKEN_REVIEWS, { body: tokenReview(token) });
      expect([token, r.status]).toEqual([token, 201]);
      expect([token, (r.json as Json)['status']]).toEqual([token, { user: {} }]);
    }
  });

  it('refuses an empty token, other verbs and a namespaced path', async () => {
    const empty = await server.request('POST', TOKEN_REVIEWS, { body: tokenReview('') });
    expect(empty.status).toBe(400);
    expect(empty.json).toMatchObject({
      reason: 'BadRequest',
      message: 'token is required for TokenReview in authentication',
    });
    const list = await server.request('GET', TOKEN_REVIEWS);
    expect(list.status).toBe(405);
    expect(list.json).toMatchObject({ reason: 'MethodNotAllowed' });
    expect((await server.request('GET', `${TOKEN_REVIEWS}/x`)).status).toBe(404);
    expect(
      (
        await server.request('POST', '/apis/authentication.k8s.io/v1/namespaces/default/tokenreviews', {
          body: tokenReview('admin-token'),
        })
      ).status,
    ).toBe(404);
    const strict = await server.request('POST', `${TOKEN_REVIEWS}?fieldValidation=Strict`, {
      body: { ...tokenReview('admin-token'), bogus: true },
    });
    expect(strict.status).toBe(400);
    expect(strict.json).toMatchObject({
      message:
        'TokenReview in version "v1" cannot be handled as a TokenReview: strict decoding error: unknown field "bogus"',
    });
  });

  it('is not stored: the review names nothing to read back', async () => {
    const r = await server.request('POST', TOKEN_REVIEWS, {
      body: { ...tokenReview('admin-token'), metadata: { name: 'kept' } },
    });
    expect(r.status).toBe(201);
    expect((await server.request('GET', `${TOKEN_REVIEWS}/kept`)).status).toBe(404);
  });
});

describe('SubjectAccessReview', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keel-sar-'));
  const policyFile = join(dir, 'policy.jsonl');
  writeFileSync(
    policyFile,
    JSON.stringify({
      apiVersion: 'abac.authorization.kubernetes.io/v1beta1',
      kind: 'Policy',
      spec: { user: 'alice', namespace: 'default', resource: '*', apiGroup: '*', readonly: true },
    }) + '\n',
  );

  describe.each([
    ['AlwaysAllow', [] as string[]],
    ['ABAC', ['--authorization-mode=ABAC', `--authorization-policy-file=${policyFile}`]],
    ['AlwaysDeny', ['--authorization-mode=AlwaysDeny']],
  ])('answered by the %s authorizer', (mode, args) => {
    let server: TestApiServer;
    beforeAll(async () => {
      server = await TestApiServer.start({ args });
      await server.ready();
    });
    afterAll(async () => {
      await server?.stop();
    });

    const ask = async (body: Json) => {
      const r = await server.request('POST', SARS, { body });
      expect(r.status).toBe(201);
      return (r.json as Json)['status'];
    };

    it('answers for the user it names', async () => {
      const reads = await ask(sar('alice', ['dev'], podAttrs('list')));
      const writes = await ask(sar('alice', ['dev'], podAttrs('create')));
      const elsewhere = await ask(sar('alice', ['dev'], podAttrs('get', 'kube-system')));
      const health = await ask(sar('bob', [], { nonResourceAttributes: { path: '/healthz', verb: 'get' } }));
      const masters = await ask(sar('root', ['system:masters'], podAttrs('delete')));
      const allowed = { allowed: true };
      const noMatch = { allowed: false, reason: 'No policy matched.' };
      const forbidden = { allowed: false, reason: 'Everything is forbidden.' };
      const expected = {
        AlwaysAllow: [allowed, allowed, allowed, allowed],
        ABAC: [allowed, noMatch, noMatch, noMatch],
        AlwaysDeny: [forbidden, forbidden, forbidden, forbidden],
      }[mode];
      expect([reads, writes, elsewhere, health]).toEqual(expected);
      // system:masters passes every authorizer chain.
      expect(masters).toEqual(allowed);
    });

    it('echoes the request and refuses an invalid one with the real 422', async () => {
      const body = sar('alice', ['dev'], podAttrs('list'));
      const r = await server.request('POST', SARS, { body });
      expect(r.json).toMatchObject({
        kind: 'SubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        spec: body['spec'] as Json,
      });
      const invalid = await server.request('POST', SARS, { body: sar('', [], podAttrs('get')) });
      expect(invalid.status).toBe(422);
      expect(invalid.json).toMatchObject({
        reason: 'Invalid',
        message:
          '.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
      });
      expect((await server.request('GET', SARS)).status).toBe(405);
    });
  });
});
