/** Questions about errors (apimachinery IsNotFound & co.) and the conversion of anything to a Status. */
import { internalError, StatusError } from './errors.js';
import type { Status, StatusReason } from './status.js';

/** The Status reason of an error, or undefined for anything that is not a StatusError. */
export function reasonForError(err: unknown): StatusReason | undefined {
  return err instanceof StatusError ? err.status.reason : undefined;
}

function hasReason(reason: StatusReason): (err: unknown) => boolean {
  return (err) => reasonForError(err) === reason;
}

export const isNotFound = hasReason('NotFound');
export const isAlreadyExists = hasReason('AlreadyExists');
export const isConflict = hasReason('Conflict');
export const isInvalid = hasReason('Invalid');
export const isBadRequest = hasReason('BadRequest');
export const isUnauthorized = hasReason('Unauthorized');
export const isForbidden = hasReason('Forbidden');
export const isMethodNotSupported = hasReason('MethodNotAllowed');
export const isNotAcceptable = hasReason('NotAcceptable');
export const isUnsupportedMediaType = hasReason('UnsupportedMediaType');
export const isGone = hasReason('Gone');
export const isResourceExpired = hasReason('Expired');
export const isRequestEntityTooLarge = hasReason('RequestEntityTooLarge');
export const isInternalError = hasReason('InternalError');
export const isTimeout = hasReason('Timeout');
export const isServerTimeout = hasReason('ServerTimeout');
export const isServiceUnavailable = hasReason('ServiceUnavailable');

/** Like client-go: the reason, or a 429 code without a known reason. */
export function isTooManyRequests(err: unknown): boolean {
  return reasonForError(err) === 'TooManyRequests' || (err instanceof StatusError && err.code === 429);
}

/** Clients treat Gone, Expired and any 410 alike (relist). */
export function isGoneOrExpired(err: unknown): boolean {
  return err instanceof StatusError && (err.code === 410 || isGone(err) || isResourceExpired(err));
}

/** Whether a cause with the given reason is present (e.g. `ResourceVersionTooLarge`). */
export function hasStatusCause(err: unknown, causeReason: string): boolean {
  return err instanceof StatusError && (err.status.details?.causes ?? []).some((c) => c.reason === causeReason);
}

export function isTooLargeResourceVersion(err: unknown): boolean {
  return isTimeout(err) && hasStatusCause(err, 'ResourceVersionTooLarge');
}

/**
 * The Status to write for any thrown value: a StatusError's own Status, otherwise a 500
 * InternalError carrying only the error's message (never its stack).
 */
export function toStatus(err: unknown): Status {
  if (err instanceof StatusError) return err.status;
  return internalError(err).status;
}
