import { describe, expect, it } from 'vitest';
import { errorFromResponse } from './index.js';

// The Keel server always answers errors with a Status (covered end to end in rest-client.test.ts);
// other compatible servers and proxies in between may not, which is what these cases are about.

describe('errorFromResponse', () => {
  const status = (code: number, message: string, reason?: string, details?: object) => ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    ...(reason ? { reason } : {}),
    ...(details ? { details } : {}),
    code,
  });

  it.each<[string, number, Record<string, string>, string, object]>([
    [
      'plain-text 429 with Retry-After (max-inflight / APF)',
      429,
      { 'retry-after': '3' },
      'Too many requests, please try again later.\n',
      status(429, 'Too many requests, please try again later.', 'TooManyRequests', { retryAfterSeconds: 3 }),
    ],
    [
      'an empty 503',
      503,
      {},
      '',
      status(503, 'the server is currently unable to handle the request', 'ServiceUnavailable'),
    ],
    [
      'an HTML 502 from a proxy',
      502,
      {},
      '<html>Bad Gateway</html>',
      status(502, '<html>Bad Gateway</html>', 'InternalError'),
    ],
    ['an unknown 4xx', 418, {}, '', status(418, 'the server responded with the status code 418')],
    ['JSON that is not a Status', 400, {}, '{"error":"x"}', status(400, '{"error":"x"}', 'BadRequest')],
    [
      'a Status without a code takes the HTTP code',
      409,
      {},
      JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'm',
        reason: 'Conflict',
      }),
      status(409, 'm', 'Conflict'),
    ],
  ])('%s', (_what, code, headers, text, want) => {
    const err = errorFromResponse(code, headers, text);
    expect(err.status).toEqual(want);
    expect([err.code, err.message]).toEqual([code, (want as { message: string }).message]);
  });
});
