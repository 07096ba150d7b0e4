import type { Authenticator, Authorizer, RuleResolver } from '@keel/auth';
import {
  localSubjectAccessReviewResource,
  SELF_SUBJECT_REVIEW_VERSIONS,
  selfSubjectAccessReviewResource,
  selfSubjectReviewResource,
  selfSubjectRulesReviewResource,
  subjectAccessReviewResource,
  tokenReviewResource,
} from '@keel/coreapi';
import type { ResourceDispatcher, RouteHandler, ServedResource } from '../endpoints/dispatch.js';
import { subjectAccessReviewHandler, tokenReviewHandler } from '../endpoints/handlers/reviews.js';
import {
  localSubjectAccessReviewHandler,
  selfSubjectAccessReviewHandler,
  selfSubjectReviewHandler,
  selfSubjectRulesReviewHandler,
} from '../endpoints/handlers/self-reviews.js';
import type { ScopeDefaults } from '../server/server.js';

export interface ReviewDeps {
  /** The chains the server authenticates and authorizes its own requests with. */
  readonly authenticator: Authenticator;
  readonly authorizer: Authorizer;
  /** Lists the rules the authorizer chain grants (SelfSubjectRulesReview). */
  readonly ruleResolver: RuleResolver;
  /** --api-audiences (defaulting to the service account issuers). */
  readonly apiAudiences: readonly string[];
}

type CreateOnly = Omit<ServedResource, 'listKind'> & { readonly verbs: readonly string[] };

/** Serves one create-only resource through its handler. */
function serve(dispatcher: ResourceDispatcher, r: CreateOnly, create: RouteHandler): ServedResource {
  const served: ServedResource = { ...r, listKind: `${r.kind}List`, verbs: [...r.verbs] };
  dispatcher.addRoute({ ...served, subresource: '', handlers: { create } });
  return served;
}

/**
 * The review APIs: create-only, never stored. TokenReview and SubjectAccessReview let a
 * delegating server (the scheduler's secure port) ask this server's own authenticator and
 * authorizer; the self reviews (`kubectl auth can-i`, `kubectl auth whoami`) and
 * LocalSubjectAccessReview answer about the caller or within a namespace. Installed in the
 * order discovery lists them: authentication.k8s.io v1, then authorization.k8s.io, then the
 * older authentication versions, which the dispatcher drops unless --runtime-config turns them
 * on (off by default, as in kube).
 */
export function installReviews(
  dispatcher: ResourceDispatcher,
  defaults: ScopeDefaults,
  deps: ReviewDeps,
): ServedResource[] {
  const served = [
    serve(
      dispatcher,
      tokenReviewResource,
      tokenReviewHandler(defaults, deps.authenticator, deps.apiAudiences),
    ),
    serve(dispatcher, selfSubjectReviewResource('v1'), selfSubjectReviewHandler(defaults, 'v1')),
    serve(dispatcher, subjectAccessReviewResource, subjectAccessReviewHandler(defaults, deps.authorizer)),
    serve(
      dispatcher,
      selfSubjectAccessReviewResource,
      selfSubjectAccessReviewHandler(defaults, deps.authorizer),
    ),
    serve(
      dispatcher,
      localSubjectAccessReviewResource,
      localSubjectAccessReviewHandler(defaults, deps.authorizer),
    ),
    serve(
      dispatcher,
      selfSubjectRulesReviewResource,
      selfSubjectRulesReviewHandler(defaults, deps.ruleResolver),
    ),
  ];
  for (const version of SELF_SUBJECT_REVIEW_VERSIONS) {
    if (version === 'v1') continue;
    served.push(
      serve(dispatcher, selfSubjectReviewResource(version), selfSubjectReviewHandler(defaults, version)),
    );
  }
  return served;
}
