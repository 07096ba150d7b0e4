/**
 * The `Status` wire object (meta/v1) that every API error and some successes are written as.
 * Property order follows the Go struct so JSON.stringify gives the same byte order as the real
 * server, and empty fields are left out as Go's `omitempty` does.
 */

/** The closed set of failure reasons this server emits, with the HTTP code each one carries. */
export const statusReasonCodes = {
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
} as const;

export type StatusReason = keyof typeof statusReasonCodes;

export interface StatusCause {
  /** A field-error type (`FieldValueRequired`...) or another machine-readable cause. */
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  /** For NotFound, AlreadyExists, Conflict and Forbidden this is the resource (plural), not the Kind. */
  readonly kind?: string;
  readonly uid?: string;
  readonly causes?: readonly StatusCause[];
  readonly retryAfterSeconds?: number;
}

export interface StatusListMeta {
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

export interface Status {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: StatusListMeta;
  readonly status: 'Failure' | 'Success';
  readonly message?: string;
  /** Absent for errors that were not Status errors (Go's StatusReasonUnknown is ""). */
  readonly reason?: StatusReason;
  readonly details?: StatusDetails;
  readonly code?: number;
}

export interface DetailsInput {
  name?: string | undefined;
  group?: string | undefined;
  kind?: string | undefined;
  uid?: string | undefined;
  causes?: readonly StatusCause[] | undefined;
  retryAfterSeconds?: number | undefined;
}

/** StatusDetails with Go's omitempty applied: empty strings, zero and empty lists vanish. */
export function statusDetails(input: DetailsInput): StatusDetails {
  const out: { -readonly [K in keyof StatusDetails]: StatusDetails[K] } = {};
  if (input.name) out.name = input.name;
  if (input.group) out.group = input.group;
  if (input.kind) out.kind = input.kind;
  if (input.uid) out.uid = input.uid;
  if (input.causes && input.causes.length > 0) out.causes = input.causes.map(statusCause);
  if (input.retryAfterSeconds) out.retryAfterSeconds = input.retryAfterSeconds;
  return out;
}

function statusCause(c: StatusCause): StatusCause {
  const out: { -readonly [K in keyof StatusCause]: StatusCause[K] } = {};
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  if (c.field) out.field = c.field;
  return out;
}

export interface FailureInput {
  readonly message: string;
  readonly reason?: StatusReason | undefined;
  readonly code?: number | undefined;
  /** `undefined` leaves `details` out; an object (even an empty one) is written. */
  readonly details?: DetailsInput | undefined;
  readonly metadata?: StatusListMeta | undefined;
}

/** A Failure Status; the code defaults to the reason's code from the table, or 500. */
export function failureStatus(input: FailureInput): Status {
  const code = input.code ?? (input.reason ? statusReasonCodes[input.reason] : 500);
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: { ...input.metadata },
    status: 'Failure',
    ...(input.message ? { message: input.message } : {}),
    ...(input.reason ? { reason: input.reason } : {}),
    ...(input.details ? { details: statusDetails(input.details) } : {}),
    code,
  };
}

/**
 * A Success Status. A delete answers `successStatus({name, group, kind: resource, uid})` (no
 * code), a binding create `successStatus(undefined, 201)`.
 */
export function successStatus(details?: DetailsInput, code?: number): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    ...(details ? { details: statusDetails(details) } : {}),
    ...(code ? { code } : {}),
  };
}

/** True for anything shaped like a Status object (e.g. decoded from a response body). */
export function isStatus(value: unknown): value is Status {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v['kind'] === 'Status' && (v['status'] === 'Failure' || v['status'] === 'Success');
}
