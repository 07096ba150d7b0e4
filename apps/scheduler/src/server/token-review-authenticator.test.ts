import type { AuthenticationResult, TokenAuthenticator } from '@keel/auth';
import { afterEach, describe, expect, it } from 'vitest';
import { reviewAnswer, ReviewStub } from './testing/review-stub.js';
import {
  CachedTokenAuthenticator,
  TOKEN_REVIEWS_PATH,
  TokenReviewAuthenticator,
  tokenReviewRequest,
  tokenReviewVerdict,
} from './token-review-authenticator.js';

const FAST = { backoff: { initialMs: 1, factor: 1, jitter: 0, steps: 3 } };

describe('tokenReviewRequest / tokenReviewVerdict', () => {
  it('sends the token in an authentication.k8s.io/v1 TokenReview without audiences', () => {
    expect(tokenReviewRequest('abc')).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: 'abc' },
    });
  });

  it('reads an authenticated answer as the user it names', () => {
    const verdict = tokenReviewVerdict({
      status: {
        authenticated: true,
        user: { username: 'jane', uid: '42', groups: ['dev'], extra: { scopes: ['a', 'b'] } },
      },
    });
    expect(verdict).toEqual({
      user: { name: 'jane', uid: '42', groups: ['dev'], extra: { scopes: ['a', 'b'] } },
    });
  });

  it('fills what the answer leaves out with empty values', () => {
    expect(tokenReviewVerdict({ status: { authenticated: true, user: { username: 'bob' } } })).toEqual({
      user: { name: 'bob', uid: '', groups: [], extra: {} },
    });
  });

  it('reads a refusal as no user (invalid bearer token) and a refusal with an error as that error', () => {
    expect(tokenReviewVerdict({ status: { user: {} } })).toBeUndefined();
    expect(tokenReviewVerdict({ status: { authenticated: false, error: 'token expired' } })).toEqual({
      error: 'token expired',
    });
    expect(tokenReviewVerdict('not an object')).toBeUndefined();
  });
});

class CountingTokens implements TokenAuthenticator {
  calls = 0;
  constructor(private readonly answer: (token: string) => AuthenticationResult) {}
  async authenticateToken(token: string): Promise<AuthenticationResult> {
    this.calls++;
    await new Promise((r) => setTimeout(r, 5));
    return this.answer(token);
  }
}

describe('CachedTokenAuthenticator', () => {
  const user = { user: { name: 'jane', uid: '', groups: [], extra: {} } };

  it('keeps users and plain refusals for the ttl, then asks again', async () => {
    let now = 0;
    const inner = new CountingTokens((t) => (t === 'good' ? user : undefined));
    const cached = new CachedTokenAuthenticator(inner, 10_000, () => now);
    expect(await cached.authenticateToken('good')).toEqual(user);
    expect(await cached.authenticateToken('bad')).toBeUndefined();
    expect(await cached.authenticateToken('good')).toEqual(user);
    expect(await cached.authenticateToken('bad')).toBeUndefined();
    expect(inner.calls).toBe(2);
    now = 10_000;
    await cached.authenticateToken('good');
    await cached.authenticateToken('bad');
    expect(inner.calls).toBe(4);
  });

  it('never keeps failures', async () => {
    const inner = new CountingTokens(() => ({ error: 'connection refused' }));
    const cached = new CachedTokenAuthenticator(inner, 10_000);
    expect(await cached.authenticateToken('t')).toEqual({ error: 'connection refused' });
    expect(await cached.authenticateToken('t')).toEqual({ error: 'connection refused' });
    expect(inner.calls).toBe(2);
  });

  it('asks once for concurrent requests with the same token', async () => {
    const inner = new CountingTokens(() => user);
    const cached = new CachedTokenAuthenticator(inner, 0);
    const results = await Promise.all([1, 2, 3].map(() => cached.authenticateToken('t')));
    expect(results).toEqual([user, user, user]);
    expect(inner.calls).toBe(1);
    await cached.authenticateToken('t'); // ttl 0: nothing kept once the review is over
    expect(inner.calls).toBe(2);
  });
});

describe('TokenReviewAuthenticator (over HTTP)', () => {
  let stub: ReviewStub | undefined;
  afterEach(async () => {
    await stub?.stop();
    stub = undefined;
  });

  it('POSTs the review to tokenreviews and reads the answer', async () => {
    stub = await ReviewStub.start((req) =>
      reviewAnswer(req, { authenticated: true, user: { username: 'jane', groups: ['dev'] } }),
    );
    const authn = new TokenReviewAuthenticator(stub.client(), undefined, FAST);
    expect(await authn.authenticateToken('secret')).toEqual({
      user: { name: 'jane', uid: '', groups: ['dev'], extra: {} },
    });
    expect(stub.received).toEqual([
      {
        method: 'POST',
        path: TOKEN_REVIEWS_PATH,
        authorization: undefined,
        body: tokenReviewRequest('secret'),
      },
    ]);
  });

  it('retries an InternalError and gives up on a Forbidden at once', async () => {
    let n = 0;
    stub = await ReviewStub.start((req) =>
      n++ === 0
        ? { status: 500, body: '' }
        : reviewAnswer(req, { authenticated: true, user: { username: 'x' } }),
    );
    const authn = new TokenReviewAuthenticator(stub.client(), undefined, FAST);
    expect(await authn.authenticateToken('t')).toMatchObject({ user: { name: 'x' } });
    expect(stub.received).toHaveLength(2);

    const forbidden = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: 'tokenreviews.authentication.k8s.io is forbidden: User "s" cannot create resource',
      reason: 'Forbidden',
      code: 403,
    };
    stub.respond(() => ({ status: 403, body: forbidden }));
    expect(await authn.authenticateToken('u')).toEqual({ error: forbidden.message });
    expect(stub.received).toHaveLength(3);
  });

  it('reports the last failure once the steps run out', async () => {
    stub = await ReviewStub.start(() => ({ status: 429, body: '', headers: { 'retry-after': '1' } }));
    const authn = new TokenReviewAuthenticator(stub.client(), undefined, FAST);
    const r = await authn.authenticateToken('t');
    expect(r).toMatchObject({ error: expect.stringContaining('too many requests') as unknown });
    expect(stub.received).toHaveLength(3);
  });
});
