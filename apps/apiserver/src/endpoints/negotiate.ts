import type { IncomingMessage } from 'node:http';
import { notAcceptable } from '@keel/apimachinery';
import { PROTOBUF } from '@keel/protobuf';
import {
  negotiateMediaOptions,
  RESOURCE,
  type MediaTypeOptions,
  type Restrictions,
} from './media-options.js';
import { RESOURCE_PRODUCES, restfulAccepts, restfulNotAcceptable } from './restful-route.js';

/** What a resource endpoint answers in. */
export type OutputFormat = 'json' | 'yaml' | 'protobuf';

/** The media types a resource endpoint lists in its 406, as the real server's. */
export const SERVED_MEDIA_TYPES = ['application/json', 'application/yaml', PROTOBUF];

/** What a watch lists when the negotiated serializer has no stream form (YAML). */
export const STREAM_MEDIA_TYPES = ['application/json;stream=watch', `${PROTOBUF};stream=watch`];

/**
 * The encoding the Accept header picks for a resource response (goautoneg's order: q, then
 * specificity, then the client's order): the first clause the endpoint can serve. A `*\/*` or
 * `application/*` clause is JSON, the real server's first serializer; protobuf only when the
 * object has a message (`protobufOk`) or the clause converts it (PartialObjectMetadata), else
 * that clause is passed over. Undefined: nothing acceptable.
 */
export function negotiateOutput(
  accept: string | undefined,
  protobufOk: boolean,
  restrictions: Restrictions = RESOURCE,
): OutputFormat | undefined {
  const media = negotiateMediaOptions(accept, { ...restrictions, protobuf: protobufOk });
  return media?.encoding;
}

/** The resource endpoint's negotiated media type (encoding and any `as=` conversion). */
export function resourceMedia(req: IncomingMessage): MediaTypeOptions | undefined {
  return negotiateMediaOptions(req.headers.accept, RESOURCE);
}

/**
 * The real server negotiates the response before it does anything: go-restful first refuses an
 * Accept naming none of the route's types ("406: Not Acceptable"), then the handler one whose
 * clauses it cannot serve (a 406 naming what it does); either way the request has no effect.
 */
export function checkAcceptable(req: IncomingMessage, restrictions: Restrictions = RESOURCE): void {
  if (!restfulAccepts(req.headers.accept, RESOURCE_PRODUCES)) throw restfulNotAcceptable();
  if (negotiateOutput(req.headers.accept, true, restrictions) === undefined) {
    throw notAcceptable(SERVED_MEDIA_TYPES);
  }
}

/** Whether the client's Accept names protobuf at all (only then is the codec worth loading). */
export function mentionsProtobuf(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('vnd.kubernetes.protobuf');
}
