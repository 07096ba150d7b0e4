import { describe, expect, it } from 'vitest';
import {
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isGone,
  isGoneOrExpired,
  isInternalError,
  isInvalid,
  isMethodNotSupported,
  isNotAcceptable,
  isNotFound,
  isRequestEntityTooLarge,
  isResourceExpired,
  isServerTimeout,
  isServiceUnavailable,
  isTimeout,
  isTooLargeResourceVersion,
  isTooManyRequests,
  isUnauthorized,
  isUnsupportedMediaType,
  reasonForError,
  toStatus,
} from './error-predicates.js';
import {
  alreadyExists,
  badRequest,
  conflict,
  expired,
  forbidden,
  gone,
  internalError,
  invalid,
  methodNotSupported,
  notAcceptable,
  notFound,
  requestEntityTooLarge,
  serverTimeout,
  serviceUnavailable,
  timeout,
  tooLargeResourceVersion,
  tooManyRequests,
  unauthorized,
  unknownError,
  unsupportedMediaType,
} from './errors.js';

const qr = { group: '', resource: 'pods' };

describe('predicates', () => {
  const cases: [string, (e: unknown) => boolean, unknown][] = [
    ['isNotFound', isNotFound, notFound(qr, 'a')],
    ['isAlreadyExists', isAlreadyExists, alreadyExists(qr, 'a')],
    ['isConflict', isConflict, conflict(qr, 'a', 'x')],
    ['isInvalid', isInvalid, invalid({ group: '', kind: 'Pod' }, 'a', [])],
    ['isBadRequest', isBadRequest, badRequest('x')],
    ['isUnauthorized', isUnauthorized, unauthorized()],
    ['isForbidden', isForbidden, forbidden(qr, 'a', 'x')],
    ['isMethodNotSupported', isMethodNotSupported, methodNotSupported(qr, 'watch')],
    ['isNotAcceptable', isNotAcceptable, notAcceptable(['a'])],
    ['isUnsupportedMediaType', isUnsupportedMediaType, unsupportedMediaType(['a'])],
    ['isGone', isGone, gone('x')],
    ['isResourceExpired', isResourceExpired, expired('x')],
    ['isRequestEntityTooLarge', isRequestEntityTooLarge, requestEntityTooLarge(1)],
    ['isTooManyRequests', isTooManyRequests, tooManyRequests('x')],
    ['isInternalError', isInternalError, internalError('x')],
    ['isTimeout', isTimeout, timeout('x')],
    ['isServerTimeout', isServerTimeout, serverTimeout(qr, 'get', 1)],
    ['isServiceUnavailable', isServiceUnavailable, serviceUnavailable('x')],
    ['isTooLargeResourceVersion', isTooLargeResourceVersion, tooLargeResourceVersion(2, 1)],
    ['isGoneOrExpired (Gone)', isGoneOrExpired, gone('x')],
    ['isGoneOrExpired (Expired)', isGoneOrExpired, expired('x')],
  ];

  it.each(cases)('%s is true for its own error', (_n, pred, err) => {
    expect(pred(err)).toBe(true);
  });

  it.each(cases)('%s is false for other errors and non-Status values', (_n, pred) => {
    const other = pred === isNotFound ? badRequest('x') : notFound(qr, 'z');
    expect(pred(other)).toBe(false);
    expect(pred(new Error('plain'))).toBe(false);
    expect(pred(undefined)).toBe(false);
  });

  it('a plain timeout is not a too-large-RV timeout', () => {
    expect(isTooLargeResourceVersion(timeout('x'))).toBe(false);
  });

  it('a reason-less 429 counts as too many requests', () => {
    expect(isTooManyRequests(unknownError('slow', 429))).toBe(true);
  });

  it('reasonForError', () => {
    expect(reasonForError(notFound(qr, 'a'))).toBe('NotFound');
    expect(reasonForError('nope')).toBeUndefined();
  });
});

describe('toStatus', () => {
  it('returns a StatusError as is', () => {
    const err = notFound(qr, 'a');
    expect(toStatus(err)).toBe(err.status);
  });

  it.each([
    [new Error('disk on fire'), 'disk on fire'],
    ['a string', 'a string'],
    [42, '42'],
  ])('wraps %j as a 500 InternalError without a stack', (thrown, text) => {
    const s = toStatus(thrown);
    expect(s).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Internal error occurred: ${text}`,
      reason: 'InternalError',
      details: { causes: [{ message: text }] },
      code: 500,
    });
    expect(JSON.stringify(s)).not.toContain('at ');
  });
});
