import { createHash } from 'node:crypto';
import type { AuthenticationResult, TokenAuthenticator, UserInfo } from '@keel/auth';
import type { RestClient } from '@keel/client';
import type { Logger } from '@keel/log';
import { errorText, isRecord, postReview, type ReviewRequestOptions } from './review-request.js';
import { TtlCache } from './ttl-cache.js';

export const TOKEN_REVIEWS_PATH = '/apis/authentication.k8s.io/v1/tokenreviews';

/** kube's token cache holds 32 stripes of 4096 entries. */
const MAX_CACHED_TOKENS = 32 * 4096;

/** The TokenReview the scheduler sends for a bearer token (no audiences, as kube-scheduler). */
export function tokenReviewRequest(token: string): Record<string, unknown> {
  return { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } };
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];

/**
 * What the API server's answer means, as kube's webhook token authenticator reads it: an
 * authenticated user; `status.error` as the failure (a 401 that is not cached); or, when it simply
 * said no, undefined, which the bearer-token authenticator turns into `invalid bearer token`.
 */
export function tokenReviewVerdict(answer: unknown): AuthenticationResult {
  const status = isRecord(answer) && isRecord(answer['status']) ? answer['status'] : {};
  if (status['authenticated'] !== true) {
    const error = status['error'];
    return typeof error === 'string' && error !== '' ? { error } : undefined;
  }
  const u = isRecord(status['user']) ? status['user'] : {};
  const extra: Record<string, string[]> = {};
  if (isRecord(u['extra'])) for (const [k, v] of Object.entries(u['extra'])) extra[k] = strings(v);
  const user: UserInfo = {
    name: typeof u['username'] === 'string' ? u['username'] : '',
    uid: typeof u['uid'] === 'string' ? u['uid'] : '',
    groups: strings(u['groups']),
    extra,
  };
  return { user };
}

/** Asks the API server about each token (POST tokenreviews); no caching here. */
export class TokenReviewAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly client: RestClient,
    private readonly logger?: Logger,
    private readonly opts: ReviewRequestOptions = {},
  ) {}

  async authenticateToken(token: string): Promise<AuthenticationResult> {
    let answer: unknown;
    try {
      answer = await postReview(this.client, TOKEN_REVIEWS_PATH, tokenReviewRequest(token), this.opts);
    } catch (err) {
      this.logger?.error('Failed to make webhook authenticator request', { err });
      return { error: errorText(err) };
    }
    return tokenReviewVerdict(answer);
  }
}

/**
 * kube's cached token authenticator as the delegated chain builds it (cacheErrs false, one TTL
 * for both answers): users and plain refusals are kept for `ttlMs`, failures (the server could
 * not be asked, or answered with an error) never are. Tokens are keyed by their SHA-256 so the
 * cache holds no credentials, and concurrent requests with one token share a single review.
 */
export class CachedTokenAuthenticator implements TokenAuthenticator {
  private readonly cache: TtlCache<{ readonly result: AuthenticationResult }>;
  private readonly inFlight = new Map<string, Promise<AuthenticationResult>>();

  constructor(
    private readonly inner: TokenAuthenticator,
    private readonly ttlMs: number,
    now: () => number = Date.now,
  ) {
    this.cache = new TtlCache(MAX_CACHED_TOKENS, now);
  }

  authenticateToken(token: string): Promise<AuthenticationResult> {
    const key = createHash('sha256').update(token).digest('hex');
    const hit = this.cache.get(key);
    if (hit !== undefined) return Promise.resolve(hit.result);
    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending;
    const review = this.inner
      .authenticateToken(token)
      .then((result) => {
        if (result === undefined || 'user' in result) this.cache.set(key, { result }, this.ttlMs);
        return result;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, review);
    return review;
  }
}
