import type { Logger } from '@keel/log';
import { sendReview, type ReviewEndpoint } from '../../webhook/endpoint.js';
import { errorText, expectKind, type ReviewRequestOptions } from '../../webhook/review-request.js';
import { TtlCache } from '../../webhook/ttl-cache.js';
import type { UserInfo } from '../../authn/types.js';
import type { Attributes, Authorizer, Decision, RuleResolution, RuleResolver } from '../types.js';
import {
  decisionFromStatus,
  subjectAccessReviewRequest,
  subjectAccessReviewSpec,
  subjectAccessReviewStatus,
  type SubjectAccessReviewStatus,
  type SubjectAccessReviewVersion,
} from './subject-access-review.js';

/** Where a delegating server (the scheduler) asks the API server about access. */
export const SUBJECT_ACCESS_REVIEWS_PATH = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

/** kube's webhook authorizer keeps 8192 answers. */
const MAX_CACHED_DECISIONS = 8192;
/** Requests whose caller-chosen attributes add up to this many characters are never cached (DoS). */
const MAX_CACHED_ATTRIBUTE_LENGTH = 10_000;

export interface WebhookAuthorizerOptions extends ReviewRequestOptions {
  readonly version?: SubjectAccessReviewVersion;
  /** --authorization-webhook-cache-authorized-ttl */
  readonly allowTtlMs: number;
  /** --authorization-webhook-cache-unauthorized-ttl: refusals and no-opinion answers. */
  readonly denyTtlMs: number;
  readonly logger?: Logger;
  readonly now?: () => number;
}

function shouldCache(attrs: Attributes): boolean {
  const size =
    attrs.namespace.length +
    attrs.verb.length +
    attrs.apiGroup.length +
    attrs.apiVersion.length +
    attrs.resource.length +
    attrs.subresource.length +
    attrs.name.length +
    attrs.path.length;
  return size < MAX_CACHED_ATTRIBUTE_LENGTH;
}

/**
 * kube's webhook authorizer: POSTs a SubjectAccessReview per distinct request and caches the
 * answer, allowed ones for the authorized TTL and the others for the unauthorized TTL. `denied`
 * is a Deny (the chain stops), `allowed` an Allow, neither no opinion with the webhook's reason.
 * When the webhook cannot be asked (or answers something that is not a SubjectAccessReview) the
 * decision is no opinion with the failure as its error, which the filter answers with a 500
 * unless a later authorizer allows; nothing is cached then.
 */
export class WebhookAuthorizer implements Authorizer, RuleResolver {
  private readonly cache: TtlCache<SubjectAccessReviewStatus>;
  private readonly version: SubjectAccessReviewVersion;

  constructor(
    private readonly endpoint: ReviewEndpoint,
    private readonly opts: WebhookAuthorizerOptions,
  ) {
    this.cache = new TtlCache(MAX_CACHED_DECISIONS, opts.now);
    this.version = opts.version ?? 'v1';
  }

  async authorize(attrs: Attributes): Promise<Decision> {
    const spec = subjectAccessReviewSpec(attrs);
    const key = JSON.stringify(spec);
    let status = this.cache.get(key);
    if (status === undefined) {
      try {
        const answer = await sendReview(
          this.endpoint,
          subjectAccessReviewRequest(spec, this.version),
          this.opts,
        );
        status = subjectAccessReviewStatus(expectKind(answer, 'SubjectAccessReview', 'authorization.k8s.io'));
      } catch (err) {
        this.opts.logger?.error('Failed to make webhook authorizer request', { err });
        return { decision: 'noOpinion', reason: '', error: errorText(err) };
      }
      if (shouldCache(attrs))
        this.cache.set(key, status, status.allowed ? this.opts.allowTtlMs : this.opts.denyTtlMs);
    }
    return decisionFromStatus(status);
  }

  /** A webhook cannot list what it would allow: the list is incomplete, as kube says. */
  rulesFor(_user: UserInfo, _namespace: string): Promise<RuleResolution> {
    return Promise.resolve({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'webhook authorizer does not support user rule resolution',
    });
  }
}
