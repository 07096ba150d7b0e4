import { describe, expect, it } from 'vitest';
import { failureStatus, isStatus, statusReasonCodes, successStatus } from './status.js';

describe('successStatus', () => {
  it.each([
    [
      successStatus({ name: 'x', group: 'events.k8s.io', kind: 'events', uid: 'u-1' }),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"x","group":"events.k8s.io","kind":"events","uid":"u-1"}}',
    ],
    [successStatus({ name: 'x', group: '', kind: 'events' }), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"x","kind":"events"}}'],
    [successStatus(undefined, 201), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}'],
  ])('%#', (status, want) => {
    expect(JSON.stringify(status)).toBe(want);
  });
});

describe('failureStatus', () => {
  it.each([
    [{ message: 'm', reason: 'Conflict' as const }, 409],
    [{ message: 'm', reason: 'Expired' as const }, 410],
    [{ message: 'm' }, 500],
    [{ message: 'm', code: 429 }, 429],
  ])('%j → code %d', (input, code) => {
    expect(failureStatus(input).code).toBe(code);
  });

  it('drops empty details members like omitempty', () => {
    expect(failureStatus({ message: 'm', reason: 'NotFound', details: { name: '', group: '', kind: 'pods', causes: [], retryAfterSeconds: 0 } }).details).toEqual({
      kind: 'pods',
    });
  });

  it('maps every reason to its HTTP code', () => {
    expect(statusReasonCodes).toEqual({
      NotFound: 404,
      AlreadyExists: 409,
      Conflict: 409,
      Invalid: 422,
      BadRequest: 400,
      Unauthorized: 401,
      Forbidden: 403,
      MethodNotAllowed: 405,
      NotAcceptable: 406,
      Gone: 410,
      Expired: 410,
      RequestEntityTooLarge: 413,
      UnsupportedMediaType: 415,
      TooManyRequests: 429,
      InternalError: 500,
      Timeout: 504,
      ServerTimeout: 500,
      ServiceUnavailable: 503,
    });
  });
});

describe('isStatus', () => {
  it.each([
    [successStatus(), true],
    [failureStatus({ message: 'x' }), true],
    [{ kind: 'Status' }, false],
    [{ kind: 'Pod', status: 'Failure' }, false],
    [null, false],
  ])('%j → %s', (v, want) => {
    expect(isStatus(v)).toBe(want);
  });
});
