/**
 * The one API error class and its constructors (apimachinery pkg/api/errors). Each constructor
 * reproduces the message and details of the real server exactly; see api-semantics §2.
 */
import { aggregateFieldErrors, errorBody, type FieldError } from './field-errors.js';
import { goQuote } from './go-format.js';
import { failureStatus, type DetailsInput, type Status, type StatusListMeta, type StatusReason } from './status.js';

/** A resource within its API group; the core group is `''`. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

/** `resource` for the core group, `resource.group` otherwise (`events.events.k8s.io`). */
export function qualifiedResourceString(qr: GroupResource): string {
  return qr.group ? `${qr.resource}.${qr.group}` : qr.resource;
}

/** `Kind` for the core group, `Kind.group` otherwise (`CreateOptions.meta.k8s.io`). */
export function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** An error that is written to the client as its Status. */
export class StatusError extends Error {
  readonly status: Status;

  constructor(status: Status, options?: { cause?: unknown }) {
    super(status.message ?? '', options);
    this.name = 'StatusError';
    this.status = status;
  }

  get code(): number {
    return this.status.code ?? 500;
  }

  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

interface Fail {
  message: string;
  reason?: StatusReason;
  code?: number;
  details?: DetailsInput;
  metadata?: StatusListMeta;
  cause?: unknown;
}

function fail(f: Fail): StatusError {
  return new StatusError(failureStatus(f), f.cause === undefined ? undefined : { cause: f.cause });
}

function resourceDetails(qr: GroupResource, name: string): DetailsInput {
  return { name, group: qr.group, kind: qr.resource };
}

export const optimisticLockErrorMsg = 'the object has been modified; please apply your changes to the latest version and try again';

export function notFound(qr: GroupResource, name: string): StatusError {
  const message = `${qualifiedResourceString(qr)} ${goQuote(name)} not found`;
  return fail({ message, reason: 'NotFound', details: resourceDetails(qr, name) });
}

export function alreadyExists(qr: GroupResource, name: string): StatusError {
  const message = `${qualifiedResourceString(qr)} ${goQuote(name)} already exists`;
  return fail({ message, reason: 'AlreadyExists', details: resourceDetails(qr, name) });
}

/** The 409 after generateName collided on every retry. */
export function generateNameConflict(qr: GroupResource, name: string, retryAfterSeconds = 1): StatusError {
  const message = `${qualifiedResourceString(qr)} ${goQuote(name)} already exists, the server was not able to generate a unique name for the object`;
  return fail({ message, reason: 'AlreadyExists', details: { ...resourceDetails(qr, name), retryAfterSeconds } });
}

export function conflict(qr: GroupResource, name: string, reason: string): StatusError {
  const message = `Operation cannot be fulfilled on ${qualifiedResourceString(qr)} ${goQuote(name)}: ${reason}`;
  return fail({ message, reason: 'Conflict', details: resourceDetails(qr, name) });
}

/** The resourceVersion-precondition 409 ("the object has been modified; ..."). */
export function conflictModified(qr: GroupResource, name: string): StatusError {
  return conflict(qr, name, optimisticLockErrorMsg);
}

/** 422 with one cause per field error: `Kind "name" is invalid: field: body` or `[e1, e2]`. */
export function invalid(gk: GroupKind, name: string, errs: readonly FieldError[]): StatusError {
  const causes = errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
  const head = `${groupKindString(gk)} ${goQuote(name)} is invalid`;
  const message = errs.length > 0 ? `${head}: ${aggregateFieldErrors(errs)}` : head;
  return fail({ message, reason: 'Invalid', details: { name, group: gk.group, kind: gk.kind, causes } });
}

export function badRequest(message: string): StatusError {
  return fail({ message, reason: 'BadRequest' });
}

export function unauthorized(message = 'Unauthorized'): StatusError {
  return fail({ message: message || 'not authorized', reason: 'Unauthorized' });
}

/**
 * 403. The message is `forbidden: <reason>` without a resource, `<res> is forbidden: <reason>`
 * without a name and `<res> "<name>" is forbidden: <reason>` otherwise.
 */
export function forbidden(qr: GroupResource, name: string, reason: string): StatusError {
  let message: string;
  if (!qr.group && !qr.resource) message = `forbidden: ${reason}`;
  else if (!name) message = `${qualifiedResourceString(qr)} is forbidden: ${reason}`;
  else message = `${qualifiedResourceString(qr)} ${goQuote(name)} is forbidden: ${reason}`;
  return fail({ message, reason: 'Forbidden', details: resourceDetails(qr, name) });
}

/** What an authorizer decision is checked against. */
export interface ForbiddenAttributes {
  readonly user: string;
  readonly verb: string;
  /** Non-resource requests (`/livez/etcd`) set `path` and leave `resource` empty. */
  readonly resourceRequest: boolean;
  readonly path?: string;
  readonly group?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

/** The authorization 403: `User "bob" cannot list resource "events" in API group ...`. */
export function forbiddenByAuthorizer(attrs: ForbiddenAttributes, reason = ''): StatusError {
  let message: string;
  if (!attrs.resourceRequest) {
    message = `User ${goQuote(attrs.user)} cannot ${attrs.verb} path ${goQuote(attrs.path ?? '')}`;
  } else {
    const resource = attrs.subresource ? `${attrs.resource ?? ''}/${attrs.subresource}` : (attrs.resource ?? '');
    const scope = attrs.namespace ? `in the namespace ${goQuote(attrs.namespace)}` : 'at the cluster scope';
    message = `User ${goQuote(attrs.user)} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(attrs.group ?? '')} ${scope}`;
  }
  if (reason) message += `: ${reason}`;
  const qr = attrs.resourceRequest ? { group: attrs.group ?? '', resource: attrs.resource ?? '' } : { group: '', resource: '' };
  return forbidden(qr, attrs.resourceRequest ? (attrs.name ?? '') : '', message);
}

/** NamespaceLifecycle's 403 for a create in a terminating namespace. */
export function namespaceTerminating(qr: GroupResource, name: string, namespace: string): StatusError {
  const base = forbidden(qr, name, `unable to create new content in namespace ${namespace} because it is being terminated`);
  const cause = { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' };
  return fail({ message: base.message, reason: 'Forbidden', details: { ...resourceDetails(qr, name), causes: [cause] } });
}

/** 405: `<verb> is not supported on resources of kind "<res>"`. */
export function methodNotSupported(qr: GroupResource, action: string): StatusError {
  const message = `${action} is not supported on resources of kind ${goQuote(qualifiedResourceString(qr))}`;
  return fail({ message, reason: 'MethodNotAllowed', details: { group: qr.group, kind: qr.resource } });
}

export function notAcceptable(accepted: readonly string[]): StatusError {
  return fail({ message: `only the following media types are accepted: ${accepted.join(', ')}`, reason: 'NotAcceptable' });
}

export function unsupportedMediaType(accepted: readonly string[]): StatusError {
  const message = `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`;
  return fail({ message, reason: 'UnsupportedMediaType' });
}

/** 410 Expired (Go's NewResourceExpired); `metadata` carries e.g. a fresh continue token. */
export function expired(message: string, metadata?: StatusListMeta): StatusError {
  return fail({ message, reason: 'Expired', metadata });
}

/** 410 Gone: deprecated upstream, prefer `expired`. */
export function gone(message: string): StatusError {
  return fail({ message, reason: 'Gone' });
}

/** 413: `Request entity too large: limit is N` for a number, the text as given otherwise. */
export function requestEntityTooLarge(limit: number | string): StatusError {
  const detail = typeof limit === 'number' ? `limit is ${limit}` : limit;
  return fail({ message: `Request entity too large: ${detail}`, reason: 'RequestEntityTooLarge' });
}

/** 429 `Too many requests: <msg>`; with retryAfterSeconds the details carry it too. */
export function tooManyRequests(message: string, retryAfterSeconds?: number): StatusError {
  const details = retryAfterSeconds === undefined ? undefined : { retryAfterSeconds };
  return fail({ message: `Too many requests: ${message}`, reason: 'TooManyRequests', details });
}

/** 500 `Internal error occurred: <err>` with the error text as the one cause; no stack. */
export function internalError(err: unknown): StatusError {
  const text = err instanceof Error ? err.message : String(err);
  return fail({ message: `Internal error occurred: ${text}`, reason: 'InternalError', details: { causes: [{ message: text }] }, cause: err });
}

/** 504 `Timeout: <msg>`; like Go it always writes `details` (empty when no retry is given). */
export function timeout(message: string, retryAfterSeconds = 0): StatusError {
  return fail({ message: `Timeout: ${message}`, reason: 'Timeout', details: { retryAfterSeconds } });
}

/** 500 ServerTimeout: `The <op> operation against <res> could not be completed at this time...`. */
export function serverTimeout(qr: GroupResource, operation: string, retryAfterSeconds: number): StatusError {
  const message = `The ${operation} operation against ${qualifiedResourceString(qr)} could not be completed at this time, please try again.`;
  return fail({ message, reason: 'ServerTimeout', details: { name: operation, group: qr.group, kind: qr.resource, retryAfterSeconds } });
}

export function serviceUnavailable(message: string, retryAfterSeconds?: number): StatusError {
  const details = retryAfterSeconds ? { retryAfterSeconds } : undefined;
  return fail({ message, reason: 'ServiceUnavailable', details });
}

/** 504 for a resourceVersion the store has not reached yet. */
export function tooLargeResourceVersion(requested: number | bigint, current: number | bigint, retrySeconds = 1): StatusError {
  const message = `Timeout: Too large resource version: ${requested}, current: ${current}`;
  const causes = [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }];
  return fail({ message, reason: 'Timeout', details: { causes, retryAfterSeconds: retrySeconds } });
}

/**
 * The 422 Go builds with NewGenericServerResponse, e.g. for a JSON patch that does not apply:
 * a fixed message, `details: {}`, and the underlying error kept only as the JS cause.
 */
export function unprocessableEntity(cause?: unknown): StatusError {
  return fail({ message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, cause });
}

/** A 500 without a reason: how the real server writes errors that were not Status errors. */
export function unknownError(message: string, code = 500): StatusError {
  return fail({ message, code });
}
