export { sendReview, webhookEndpoint, type ReviewEndpoint } from './endpoint.js';
export {
  DEFAULT_REVIEW_BACKOFF,
  errorText,
  expectKind,
  isRecord,
  isRetriable,
  postReview,
  REVIEW_TIMEOUT_MS,
  type RetryBackoff,
  type ReviewRequestOptions,
} from './review-request.js';
export { TtlCache } from './ttl-cache.js';
