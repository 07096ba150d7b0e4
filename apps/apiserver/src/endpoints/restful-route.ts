/**
 * The route matching go-restful does before a reference handler runs (RouterJSR311.detectRoute),
 * for the paths Keel serves that the reference serves through go-restful: the resource API,
 * /api, /api/v1, /apis/<group>/<version>, /version and the service account issuer documents.
 * A route lists what it Produces; an Accept naming none of them is go-restful's own 406 (the
 * generic server's serviceErrorHandler turns it into a Status), before any negotiation.
 */
import { StatusError } from '@keel/apimachinery';

/** What a resource route produces (the serializers' media types; `;stream=watch` never matches). */
export const RESOURCE_PRODUCES: readonly string[] = [
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
];

/**
 * Route.matchesAccept: each comma-separated type, its parameters (q included, even q=0) cut off
 * and spaces trimmed, compared case-sensitively with `*\/*` and each produced type. So
 * `application/*` and `Application/JSON` match nothing; an absent Accept is `*\/*`.
 */
export function restfulAccepts(accept: string | undefined, produces: readonly string[]): boolean {
  const text = accept === undefined || accept === '' ? '*/*' : accept;
  for (const part of text.split(',')) {
    const semi = part.indexOf(';');
    const type = (semi === -1 ? part : part.slice(0, semi)).replace(/^ +| +$/g, '');
    if (type === '*/*' || produces.includes(type)) return true;
  }
  return false;
}

/** apierrors.NewGenericServerResponse(406, ..., "406: Not Acceptable"): an empty details object. */
export function restfulNotAcceptable(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: '406: Not Acceptable',
    reason: 'NotAcceptable',
    details: {},
    code: 406,
  });
}

/** NewGenericServerResponse(405, ...): go-restful's method mismatch, in the generic message. */
export function restfulMethodNotAllowed(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server does not allow this method on the requested resource',
    reason: 'MethodNotAllowed',
    details: {},
    code: 405,
  });
}
