export {
  BOTH_ALLOWED_AND_DENIED,
  decisionFromStatus,
  subjectAccessReviewRequest,
  subjectAccessReviewSpec,
  subjectAccessReviewStatus,
  type SubjectAccessReviewSpec,
  type SubjectAccessReviewStatus,
  type SubjectAccessReviewVersion,
} from './subject-access-review.js';
export {
  SUBJECT_ACCESS_REVIEWS_PATH,
  WebhookAuthorizer,
  type WebhookAuthorizerOptions,
} from './webhook-authorizer.js';
