import { isRecord } from '../../webhook/review-request.js';
import type { AuthenticationResult, UserInfo } from '../types.js';

/** The TokenReview versions a webhook may speak (--authentication-token-webhook-version). */
export type TokenReviewVersion = 'v1' | 'v1beta1';

/**
 * The TokenReview sent for a bearer token. `audiences` are the API audiences the token must be
 * good for; none (the scheduler, or an API server without audiences) leaves the field out.
 */
export function tokenReviewRequest(
  token: string,
  version: TokenReviewVersion = 'v1',
  audiences: readonly string[] = [],
): Record<string, unknown> {
  const spec = audiences.length > 0 ? { token, audiences: [...audiences] } : { token };
  return { apiVersion: `authentication.k8s.io/${version}`, kind: 'TokenReview', spec };
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];

export interface AudienceCheck {
  /** The audiences sent in the review; empty means no check. */
  readonly wanted: readonly string[];
  /** What an answer without `status.audiences` is taken to mean (kube's implicit audiences). */
  readonly implicit: readonly string[];
}

/**
 * What the answer means, as kube's webhook token authenticator reads it (v1 and v1beta1 status
 * fields are the same): with audiences asked for, the answer's `status.audiences` (or, when it
 * has none, the implicit ones) must share one with them, else the token is not for this server
 * (no user, no error); then an authenticated user, or `status.error` as the failure, or, when
 * it simply said no, undefined, which the bearer-token authenticator turns into `invalid bearer
 * token`.
 */
export function tokenReviewVerdict(
  answer: unknown,
  audiences: AudienceCheck = { wanted: [], implicit: [] },
): AuthenticationResult {
  const status = isRecord(answer) && isRecord(answer['status']) ? answer['status'] : {};
  if (audiences.wanted.length > 0) {
    const answered = strings(status['audiences']);
    const got = new Set(answered.length > 0 ? answered : audiences.implicit);
    if (!audiences.wanted.some((a) => got.has(a))) return undefined;
  }
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
