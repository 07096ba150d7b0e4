export {
  tokenReviewRequest,
  tokenReviewVerdict,
  type AudienceCheck,
  type TokenReviewVersion,
} from './token-review.js';
export {
  CachedTokenAuthenticator,
  TOKEN_REVIEWS_PATH,
  WebhookTokenAuthenticator,
  type WebhookTokenOptions,
} from './webhook-token-authenticator.js';
