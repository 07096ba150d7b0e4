/**
 * One webhook call timed and its refusal counted, as upstream's dispatchers do: a call that
 * failed is a rejection unless the webhook's failurePolicy ignores it, and a rejection is told
 * by its cause (the webhook could not be called, it refused, or the server failed).
 */
import type { Operation } from '../../attributes.js';
import {
  secondsSince,
  type AdmissionMetrics,
  type WebhookPhase,
  type WebhookRejectionErrorType,
} from '../../metrics.js';
import type { WebhookSpec } from './config.js';
import { CallFailure, WebhookRejection } from './errors.js';

interface Rejection {
  readonly errorType: WebhookRejectionErrorType;
  readonly code: number;
}

/** undefined: not a rejection (a failure the failurePolicy ignores). */
function rejectionOf(err: unknown, hook: WebhookSpec): Rejection | undefined {
  if (err instanceof CallFailure)
    return hook.failurePolicy === 'Ignore'
      ? undefined
      : { errorType: 'calling_webhook_error', code: err.code };
  if (err instanceof WebhookRejection) return { errorType: 'no_error', code: err.code };
  return { errorType: 'apiserver_internal_error', code: 0 };
}

export async function observeCall<T>(
  metrics: AdmissionMetrics,
  hook: WebhookSpec,
  type: WebhookPhase,
  operation: Operation,
  call: () => Promise<T>,
): Promise<T> {
  const start = performance.now();
  try {
    const out = await call();
    metrics.webhook(hook.name).observe(type, operation, false, secondsSince(start));
    return out;
  } catch (err) {
    const rejection = rejectionOf(err, hook);
    if (rejection) metrics.webhookRejection(hook.name, type, operation, rejection.errorType, rejection.code);
    metrics.webhook(hook.name).observe(type, operation, rejection !== undefined, secondsSince(start));
    throw err;
  }
}
