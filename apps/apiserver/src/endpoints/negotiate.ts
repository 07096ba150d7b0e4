import type { IncomingMessage } from 'node:http';
import { notAcceptable } from '@keel/apimachinery';
import { PROTOBUF } from '@keel/protobuf';
import { parseAccept, rangeMatches, type MediaRange } from './discovery/media-type.js';
import { negotiateTable } from './table.js';

/** What a resource endpoint answers in; YAML is answered as JSON (Keel writes no YAML). */
export type OutputFormat = 'json' | 'protobuf';

/** The media types a resource endpoint lists in its 406, as the real server's. */
export const SERVED_MEDIA_TYPES = ['application/json', 'application/yaml', PROTOBUF];

function isProtobuf(c: MediaRange): boolean {
  return c.type === 'application' && c.subtype === 'vnd.kubernetes.protobuf';
}

/** Accept headers that pick JSON whatever the object: what parseAccept would conclude for them. */
const PLAIN_JSON_ACCEPTS = new Set(['', '*/*', 'application/json', 'application/json, */*']);

/**
 * The encoding the Accept header picks for a resource response (goautoneg's order: q, then
 * specificity, then the client's order): the first clause the endpoint can serve. A `*\/*` or
 * `application/*` clause is JSON, the real server's first serializer; protobuf only when the
 * object has a message (`protobufOk`), else that clause is passed over. A JSON clause asking for
 * a Table counts as JSON here (tableOptions decides on the Table). Undefined: nothing acceptable.
 */
export function negotiateOutput(accept: string | undefined, protobufOk: boolean): OutputFormat | undefined {
  // Every request negotiates; the headers most clients send need no parse (`*\/*` when absent).
  if (accept === undefined || PLAIN_JSON_ACCEPTS.has(accept)) return 'json';
  for (const c of parseAccept(accept)) {
    if (isProtobuf(c)) {
      if (protobufOk && c.params['as'] === undefined) return 'protobuf';
      continue;
    }
    if (rangeMatches(c, 'application', 'json') || rangeMatches(c, 'application', 'yaml')) {
      if (c.type === '*' || c.subtype === '*' || c.params['as'] === undefined) return 'json';
      if (c.subtype === 'json' && c.params['as'] === 'Table' && negotiateTable(accept) !== undefined)
        return 'json';
      continue;
    }
  }
  return undefined;
}

/**
 * The real server negotiates the response before it does anything: a request whose Accept admits
 * nothing it serves is a 406 naming what it does, and the request has no effect.
 */
export function checkAcceptable(req: IncomingMessage): void {
  if (negotiateOutput(req.headers.accept, true) === undefined) throw notAcceptable(SERVED_MEDIA_TYPES);
}

/** Whether the client's Accept names protobuf at all (only then is the codec worth loading). */
export function mentionsProtobuf(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('vnd.kubernetes.protobuf');
}
