import type { Logger } from '@keel/log';
import {
  ANONYMOUS_USER,
  INVALID_BEARER_TOKEN,
  isUser,
  newAuthenticationContext,
  type Attributes,
  type Authenticator,
  type Authorizer,
  type UserInfo,
} from '@keel/auth';
import {
  decodeSubjectAccessReview,
  decodeTokenReview,
  subjectAccessReviewResponse,
  tokenReviewResponse,
  type AuthorizationDecision,
  type SubjectAccessReview,
  type TokenReviewResult,
} from '@keel/coreapi';
import { NO_TABLES } from '../media-options.js';
import { checkAcceptable } from '../negotiate.js';
import { writeError, writeResourceObject } from '../respond.js';
import { readCreateOnlyBody } from './create-only.js';
import type { HandlerRequest } from './scope.js';

/** What the review endpoints share with the resource scopes. */
export interface ReviewScope {
  readonly logger: Logger;
  readonly maxRequestBodyBytes: number;
}

export type ReviewHandler = (r: HandlerRequest) => Promise<void>;

/**
 * Runs a review handler; every failure ends in one Status response. The response is negotiated
 * first, as the reference's create handler does: an Accept it cannot serve is a 406 before the
 * body is read.
 */
export function guarded(scope: ReviewScope, handle: ReviewHandler): ReviewHandler {
  return async (r) => {
    try {
      // The reviews print no Table: `as=Table` is a clause they cannot serve.
      checkAcceptable(r.req, NO_TABLES);
      await handle(r);
    } catch (err) {
      writeError(r.req, r.res, err, scope.logger);
    }
  };
}

/**
 * The audiences a review reports (authenticator.WrapAudienceAgnosticToken): the requested ones
 * (or the server's --api-audiences) that the server serves; undefined when nobody asked. An
 * empty intersection means the token is not for this server.
 */
function reviewAudiences(
  requested: readonly string[],
  apiAudiences: readonly string[],
): string[] | undefined {
  const target = requested.length > 0 ? requested : apiAudiences;
  if (target.length === 0) return undefined;
  return apiAudiences.filter((a) => target.includes(a));
}

/**
 * POST tokenreviews (authentication.k8s.io/v1): the token is put through the server's own
 * authenticator chain as an `Authorization: Bearer` header, exactly as a request carrying it
 * would be; the answer is the review with its status. Never stored.
 */
export function tokenReviewHandler(
  scope: ReviewScope,
  authenticator: Authenticator,
  apiAudiences: readonly string[],
): ReviewHandler {
  return guarded(scope, async (r) => {
    const { object: review } = await readCreateOnlyBody(r, scope.maxRequestBodyBytes, 'TokenReview', (body) =>
      decodeTokenReview(body, r.info.namespace),
    );
    const token = review.spec?.token ?? '';
    // The chain is the one requests go through; only its token authenticators may answer a
    // review: a token the header parser would split or drop never reaches them, and the
    // anonymous fallback (no credentials) is no answer about a token.
    const header = `Bearer ${token}`;
    const outcome = /\s/.test(token)
      ? undefined
      : await authenticator.authenticate(
          { headers: { authorization: header }, rawHeaders: ['Authorization', header], socket: null },
          newAuthenticationContext(),
        );
    let result: TokenReviewResult;
    if (isUser(outcome) && outcome.user.name === ANONYMOUS_USER) {
      result = { authenticated: false };
    } else if (isUser(outcome)) {
      const auds = reviewAudiences(review.spec?.audiences ?? [], apiAudiences);
      const { name, uid, groups, extra } = outcome.user;
      result =
        auds !== undefined && auds.length === 0
          ? { authenticated: false, error: INVALID_BEARER_TOKEN }
          : {
              authenticated: true,
              user: {
                username: name,
                ...(uid !== '' ? { uid } : {}),
                ...(groups.length > 0 ? { groups: [...groups] } : {}),
                extra: Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, [...v]])),
              },
              ...(auds ? { audiences: auds } : {}),
            };
    } else {
      result = { authenticated: false, ...(outcome ? { error: outcome.error } : {}) };
    }
    writeResourceObject(r.req, r.res, r.url, 201, tokenReviewResponse(review, result));
  });
}

/** The user a SubjectAccessReview (or LocalSubjectAccessReview) asks about. */
export function reviewedUser(sar: SubjectAccessReview): UserInfo {
  const spec = sar.spec ?? {};
  return { name: spec.user ?? '', uid: spec.uid ?? '', groups: spec.groups ?? [], extra: spec.extra ?? {} };
}

/** The authorizer's question for `user`, from an access review's attributes. */
export function accessAttributes(
  user: UserInfo,
  spec: Pick<NonNullable<SubjectAccessReview['spec']>, 'resourceAttributes' | 'nonResourceAttributes'>,
): Attributes {
  const ra = spec.resourceAttributes;
  if (ra) {
    return {
      user,
      verb: ra.verb ?? '',
      isResourceRequest: true,
      path: '',
      namespace: ra.namespace ?? '',
      apiGroup: ra.group ?? '',
      // An empty version asks about every version (kube's matchAllVersionIfEmpty).
      apiVersion: ra.version || '*',
      resource: ra.resource ?? '',
      subresource: ra.subresource ?? '',
      name: ra.name ?? '',
    };
  }
  const nra = spec.nonResourceAttributes ?? {};
  return {
    user,
    verb: nra.verb ?? '',
    isResourceRequest: false,
    path: nra.path ?? '',
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

const DECISIONS = { allow: 'Allow', deny: 'Deny', noOpinion: 'NoOpinion' } as const;

/** Asks the authorizer, answering as a review's status does. */
export async function decide(authorizer: Authorizer, attrs: Attributes): Promise<AuthorizationDecision> {
  const { decision, reason, error } = await authorizer.authorize(attrs);
  return {
    decision: DECISIONS[decision],
    ...(reason !== '' ? { reason } : {}),
    ...(error !== undefined ? { evaluationError: error } : {}),
  };
}

/**
 * POST subjectaccessreviews (authorization.k8s.io/v1): the server's own authorizer chain answers
 * whether the named user may do what the attributes describe. Never stored.
 */
export function subjectAccessReviewHandler(scope: ReviewScope, authorizer: Authorizer): ReviewHandler {
  return guarded(scope, async (r) => {
    const { object: sar } = await readCreateOnlyBody(
      r,
      scope.maxRequestBodyBytes,
      'SubjectAccessReview',
      decodeSubjectAccessReview,
    );
    const answer = await decide(authorizer, accessAttributes(reviewedUser(sar), sar.spec ?? {}));
    writeResourceObject(r.req, r.res, r.url, 201, subjectAccessReviewResponse(sar, answer));
  });
}
