import { badRequest } from '@keel/apimachinery';
import type { Authorizer, RuleResolver, UserInfo } from '@keel/auth';
import {
  decodeLocalSubjectAccessReview,
  decodeSelfSubjectAccessReview,
  decodeSelfSubjectReview,
  decodeSelfSubjectRulesReview,
  localSubjectAccessReviewResponse,
  selfSubjectAccessReviewResponse,
  selfSubjectReviewResponse,
  selfSubjectRulesReviewResponse,
  type SelfSubjectReviewVersion,
} from '@keel/coreapi';
import { handlerContext } from '../../filters/context.js';
import { writeResourceObject } from '../respond.js';
import { namespaceForCreate, readCreateOnlyBody } from './create-only.js';
import {
  accessAttributes,
  decide,
  guarded,
  reviewedUser,
  type ReviewHandler,
  type ReviewScope,
} from './reviews.js';
import type { HandlerRequest } from './scope.js';

/** Who is asking: the user after authentication and impersonation. */
function requestUser(r: HandlerRequest): UserInfo {
  const user = handlerContext(r.res).user;
  if (!user) throw badRequest('no user present on request');
  return user;
}

/** POST selfsubjectaccessreviews: may the caller do what the attributes describe? */
export function selfSubjectAccessReviewHandler(scope: ReviewScope, authorizer: Authorizer): ReviewHandler {
  return guarded(scope, async (r) => {
    const { object: review } = await readCreateOnlyBody(
      r,
      scope.maxRequestBodyBytes,
      'SelfSubjectAccessReview',
      decodeSelfSubjectAccessReview,
    );
    const answer = await decide(authorizer, accessAttributes(requestUser(r), review.spec ?? {}));
    writeResourceObject(r.req, r.res, r.url, 201, selfSubjectAccessReviewResponse(review, answer));
  });
}

/**
 * POST namespaces/<ns>/localsubjectaccessreviews: a SubjectAccessReview confined to the path's
 * namespace, so a namespace's administrators can be allowed to ask about it alone.
 */
export function localSubjectAccessReviewHandler(scope: ReviewScope, authorizer: Authorizer): ReviewHandler {
  return guarded(scope, async (r) => {
    const ns = r.info.namespace;
    const { object: review } = await readCreateOnlyBody(
      r,
      scope.maxRequestBodyBytes,
      'LocalSubjectAccessReview',
      (body) => decodeLocalSubjectAccessReview(body, ns, (sent) => namespaceForCreate(sent, ns)),
    );
    const answer = await decide(authorizer, accessAttributes(reviewedUser(review), review.spec ?? {}));
    writeResourceObject(r.req, r.res, r.url, 201, localSubjectAccessReviewResponse(review, answer));
  });
}

/** POST selfsubjectrulesreviews: the rules the caller holds in spec.namespace, as the chain lists them. */
export function selfSubjectRulesReviewHandler(scope: ReviewScope, resolver: RuleResolver): ReviewHandler {
  return guarded(scope, async (r) => {
    const { object: review } = await readCreateOnlyBody(
      r,
      scope.maxRequestBodyBytes,
      'SelfSubjectRulesReview',
      decodeSelfSubjectRulesReview,
    );
    const rules = await resolver.rulesFor(requestUser(r), review.spec?.namespace ?? '');
    writeResourceObject(r.req, r.res, r.url, 201, selfSubjectRulesReviewResponse(rules));
  });
}

/** POST selfsubjectreviews (any served version): the caller's identity. */
export function selfSubjectReviewHandler(
  scope: ReviewScope,
  version: SelfSubjectReviewVersion,
): ReviewHandler {
  return guarded(scope, async (r) => {
    await readCreateOnlyBody(
      r,
      scope.maxRequestBodyBytes,
      'SelfSubjectReview',
      (body) => decodeSelfSubjectReview(body, version),
      version,
    );
    const { name, uid, groups, extra } = requestUser(r);
    const user = {
      username: name,
      ...(uid !== '' ? { uid } : {}),
      ...(groups.length > 0 ? { groups: [...groups] } : {}),
      extra: Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, [...v]])),
    };
    writeResourceObject(r.req, r.res, r.url, 201, selfSubjectReviewResponse(version, user));
  });
}
