/**
 * What a failed request becomes: the server's own Status as a StatusError when it sent one, a
 * StatusError shaped the way client-go shapes non-Status error bodies otherwise, and a
 * NetworkError when no response came back at all.
 */
import { failureStatus, isStatus, StatusError, type Status, type StatusReason } from '@keel/apimachinery';

/** No HTTP response: connection refused or reset, TLS failure, DNS, client-side timeout. */
export class NetworkError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    message: string,
    /** True when the client's own per-request timeout ran out. */
    readonly timedOut = false,
    options?: { cause?: unknown },
  ) {
    super(`${method} ${url}: ${message}`, options);
    this.name = 'NetworkError';
  }
}

/** The message of a transport failure, with the useful bits of undici's nested causes. */
export function networkError(method: string, url: string, err: unknown): NetworkError {
  const parts: string[] = [];
  let cur: unknown = err;
  // undici wraps socket errors; the innermost message is the one that says what happened.
  for (let depth = 0; cur instanceof Error && depth < 4; depth++) {
    if (cur.message && !parts.includes(cur.message)) parts.push(cur.message);
    cur = cur.cause;
  }
  return new NetworkError(method, url, parts.join(': ') || String(err), false, { cause: err });
}

// client-go's NewGenericServerResponse: the reason a bare status code stands for.
const reasonByCode: Readonly<Record<number, StatusReason>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

const messageByReason: Partial<Record<StatusReason, string>> = {
  NotFound: 'the server could not find the requested resource',
  Conflict: 'the server reported a conflict',
  BadRequest: 'the server rejected our request for an unknown reason',
  Unauthorized: 'the server has asked for the client to provide credentials',
  Forbidden: 'the server does not allow access to the requested resource',
  MethodNotAllowed: 'the server does not allow this method on the requested resource',
  Gone: 'the server no longer has the requested resource',
  Invalid: 'the server rejected our request due to an error in our request',
  TooManyRequests: 'the server has received too many requests and has asked us to try again later',
  ServiceUnavailable: 'the server is currently unable to handle the request',
  Timeout:
    'the server was unable to return a response in the time allotted, but may still be processing the request',
  InternalError: 'an error on the server has prevented the request from succeeding',
};

/** A StatusError for an error response (any status >= 300 except a successful one). */
export function errorFromResponse(
  statusCode: number,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  text: string,
): StatusError {
  const parsed = tryJson(text);
  if (isStatus(parsed) && parsed.status === 'Failure') {
    const status: Status = parsed.code ? parsed : { ...parsed, code: statusCode };
    return new StatusError(status);
  }
  const reason = reasonByCode[statusCode] ?? (statusCode >= 500 ? 'InternalError' : undefined);
  const trimmed = text.trim();
  const message =
    trimmed ||
    (reason && messageByReason[reason]) ||
    `the server responded with the status code ${statusCode}`;
  const retryAfter = retryAfterSeconds(headers['retry-after']);
  return new StatusError(
    failureStatus({
      message,
      reason,
      code: statusCode,
      details: retryAfter ? { retryAfterSeconds: retryAfter } : undefined,
    }),
  );
}

function retryAfterSeconds(value: string | string[] | undefined): number | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const n = first === undefined ? NaN : Number.parseInt(first, 10);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
