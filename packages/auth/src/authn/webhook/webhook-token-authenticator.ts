import { createHash } from 'node:crypto';
import type { Logger } from '@keel/log';
import { sendReview, type ReviewEndpoint } from '../../webhook/endpoint.js';
import { errorText, expectKind, type ReviewRequestOptions } from '../../webhook/review-request.js';
import { TtlCache } from '../../webhook/ttl-cache.js';
import type { AuthenticationResult, TokenAuthenticator } from '../types.js';
import { tokenReviewRequest, tokenReviewVerdict, type TokenReviewVersion } from './token-review.js';

/** Where the scheduler (and any delegating server) asks the API server about tokens. */
export const TOKEN_REVIEWS_PATH = '/apis/authentication.k8s.io/v1/tokenreviews';

/** kube's token cache holds 32 stripes of 4096 entries. */
const MAX_CACHED_TOKENS = 32 * 4096;

export interface WebhookTokenOptions extends ReviewRequestOptions {
  readonly version?: TokenReviewVersion;
  /** The API audiences: sent in spec.audiences and checked in the answer; none: no check. */
  readonly audiences?: readonly string[];
  readonly logger?: Logger;
}

/**
 * Asks a remote service about each bearer token with a TokenReview (kube's
 * WebhookTokenAuthenticator): the API server's token webhook, or the API server itself for a
 * delegating server. A review that cannot be made, or an answer that is not a TokenReview, is
 * logged and becomes the failure (a 401, never a 500). No caching here: see
 * CachedTokenAuthenticator.
 */
export class WebhookTokenAuthenticator implements TokenAuthenticator {
  private readonly version: TokenReviewVersion;
  private readonly audiences: readonly string[];

  constructor(
    private readonly endpoint: ReviewEndpoint,
    private readonly opts: WebhookTokenOptions = {},
  ) {
    this.version = opts.version ?? 'v1';
    this.audiences = opts.audiences ?? [];
  }

  async authenticateToken(token: string): Promise<AuthenticationResult> {
    let answer: unknown;
    try {
      const request = tokenReviewRequest(token, this.version, this.audiences);
      answer = expectKind(
        await sendReview(this.endpoint, request, this.opts),
        'TokenReview',
        'authentication.k8s.io',
      );
    } catch (err) {
      this.opts.logger?.error('Failed to make webhook authenticator request', { err });
      return { error: errorText(err) };
    }
    // The implicit audiences are the API's own: an answer naming none vouches for those.
    return tokenReviewVerdict(answer, { wanted: this.audiences, implicit: this.audiences });
  }
}

/**
 * kube's cached token authenticator as webhooks are wrapped (cacheErrs false, one TTL for both
 * answers): users and plain refusals are kept for `ttlMs`, failures (the webhook could not be
 * asked, or answered with an error) never are. Tokens are keyed by their SHA-256 so the cache
 * holds no credentials; the audiences are fixed per authenticator, so one cache per authenticator
 * keys answers by token and audiences as kube does. Concurrent requests with one token share a
 * single review.
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
