import type { Authenticator, Authorizer } from '@keel/auth';
import { subjectAccessReviewResource, tokenReviewResource } from '@keel/coreapi';
import type { ResourceDispatcher, ServedResource } from '../endpoints/dispatch.js';
import { subjectAccessReviewHandler, tokenReviewHandler } from '../endpoints/handlers/reviews.js';
import type { ScopeDefaults } from '../server/server.js';

export interface ReviewDeps {
  /** The chains the server authenticates and authorizes its own requests with. */
  readonly authenticator: Authenticator;
  readonly authorizer: Authorizer;
  /** --api-audiences (defaulting to the service account issuers). */
  readonly apiAudiences: readonly string[];
}

/**
 * TokenReview and SubjectAccessReview: cluster-scoped, create-only, never stored. They let a
 * delegating server (the scheduler's secure port) ask this server's own authenticator and
 * authorizer.
 */
export function installReviews(
  dispatcher: ResourceDispatcher,
  defaults: ScopeDefaults,
  deps: ReviewDeps,
): ServedResource[] {
  const resources: [ServedResource, ServedResource] = [
    { ...tokenReviewResource, listKind: 'TokenReviewList', verbs: [...tokenReviewResource.verbs] },
    {
      ...subjectAccessReviewResource,
      listKind: 'SubjectAccessReviewList',
      verbs: [...subjectAccessReviewResource.verbs],
    },
  ];
  const [tr, sar] = resources;
  dispatcher.addRoute({
    ...tr,
    subresource: '',
    handlers: { create: tokenReviewHandler(defaults, deps.authenticator, deps.apiAudiences) },
  });
  dispatcher.addRoute({
    ...sar,
    subresource: '',
    handlers: { create: subjectAccessReviewHandler(defaults, deps.authorizer) },
  });
  return resources;
}
