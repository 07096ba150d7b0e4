/** The errors a webhook call ends in, in upstream's words (webhook/errors, webhookutil). */
import { badRequest, internalError, StatusError, type Status } from '@keel/apimachinery';

/** A webhook that could not be called or gave no usable answer: subject to its failurePolicy. */
export class CallFailure extends Error {
  constructor(
    readonly webhook: string,
    readonly reason: string,
    /** The status upstream attaches to the failure (the rejection metric's code). */
    readonly code: number,
  ) {
    super(`failed calling webhook ${JSON.stringify(webhook)}: ${reason}`);
    this.name = 'CallFailure';
  }
}

/** failurePolicy Fail: `Internal error occurred: failed calling webhook "x": …` (500). */
export function failedClosed(failure: CallFailure): StatusError {
  return internalError(failure);
}

/** A webhook's own refusal, told apart from the server's errors by the rejection metric. */
export class WebhookRejection extends StatusError {}

/** ToStatusErr: the webhook's refusal, at least a 400, its message prefixed with who refused. */
export function webhookDenied(webhook: string, result: Partial<Status> | undefined): StatusError {
  const deniedBy = `admission webhook ${JSON.stringify(webhook)} denied the request`;
  const status: Partial<Status> = { ...(result ?? {}) };
  const code = typeof status.code === 'number' && status.code >= 400 ? status.code : 400;
  const message = status.message
    ? `${deniedBy}: ${status.message}`
    : status.reason
      ? `${deniedBy}: ${status.reason}`
      : `${deniedBy} without explanation`;
  return new WebhookRejection({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    ...(status.reason ? { reason: status.reason } : {}),
    ...(status.details ? { details: status.details } : {}),
    code,
  });
}

/** NewDryRunUnsupportedErr. */
export function dryRunUnsupported(webhook: string): StatusError {
  return badRequest(`admission webhook ${JSON.stringify(webhook)} does not support dry run`);
}
