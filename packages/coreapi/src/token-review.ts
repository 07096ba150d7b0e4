/**
 * authentication.k8s.io/v1 TokenReview (pkg/registry/authentication/tokenreview): create-only,
 * never stored. The server decodes the request, refuses an empty token with a 400, asks its
 * authenticators and answers the same object with `status` filled in (api-semantics §11.2).
 */
import { badRequest } from '@keel/apimachinery';
import {
  objectMetaSpec,
  type ObjectMeta,
  wireCodec,
  type Decoded,
  always,
  bool,
  list,
  map,
  str,
  struct,
} from '@keel/resource';
import { groupTarget } from './scheme.js';

export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface TokenReview {
  metadata: ObjectMeta;
  spec?: { token?: string; audiences?: string[] };
  status?: { authenticated?: boolean; user?: UserInfo; audiences?: string[]; error?: string };
}

const strings = list(str, '[]string');

export const userInfoSpec = struct('v1.UserInfo', {
  username: str,
  uid: str,
  groups: strings,
  extra: map(list(str, 'v1.ExtraValue'), 'map[string]v1.ExtraValue'),
});

const tokenReviewSpec = struct('v1.TokenReview', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: always(struct('v1.TokenReviewSpec', { token: str, audiences: strings })),
  status: struct('v1.TokenReviewStatus', { authenticated: bool, user: userInfoSpec, audiences: strings, error: str }),
});

const codec = wireCodec<TokenReview>(groupTarget('authentication.k8s.io', 'TokenReview'), tokenReviewSpec);

/** What an authenticator said about the token. */
export interface TokenReviewResult {
  readonly authenticated: boolean;
  readonly user?: UserInfo;
  /** The audiences the token is valid for (intersected with the requested ones). */
  readonly audiences?: readonly string[];
  readonly error?: string;
}

/**
 * Decodes a TokenReview request (400s for bad bodies, as any create) and applies the REST
 * checks: a namespaced request and an empty token are 400s with the real server's text.
 */
export function decodeTokenReview(body: unknown, requestNamespace = ''): Decoded<TokenReview> {
  if (requestNamespace !== '') throw badRequest(`namespace is not allowed on this type: ${requestNamespace}`);
  const decoded = codec.decode(body);
  if (!decoded.object.spec?.token) throw badRequest('token is required for TokenReview in authentication');
  // Whatever status the client sent is replaced by the answer.
  delete decoded.object.status;
  return decoded;
}

/** The response body: the request with its status, e.g. `"status":{"user":{}}` for an unknown token. */
export function tokenReviewResponse(review: TokenReview, result: TokenReviewResult): Record<string, unknown> {
  const user = result.user ? { ...result.user, extra: result.user.extra ?? {} } : undefined;
  const status: TokenReview['status'] = {
    ...(result.authenticated ? { authenticated: true } : {}),
    ...(user ? { user } : {}),
    ...(result.audiences?.length ? { audiences: [...result.audiences] } : {}),
    ...(result.error ? { error: result.error } : {}),
  };
  return codec.encode({ ...review, status });
}

/** Discovery facts of the create-only `tokenreviews` resource (no storage, so no hash). */
export const tokenReviewResource = {
  group: 'authentication.k8s.io',
  version: 'v1',
  resource: 'tokenreviews',
  kind: 'TokenReview',
  singular: 'tokenreview',
  namespaced: false,
  verbs: ['create'],
} as const;
