import type { HandlerRequest } from './scope.js';
import { badRequest, parseCreateOptions, type WriteOptions } from '@keel/apimachinery';
import { decodeObjectBody, jsonDuplicates, readBody } from './body.js';
import { addWarnings, strictProblems } from './decode.js';

/** What a create-only endpoint decoded: the object and the create options it came with. */
export interface CreateOnlyBody<T> {
  readonly object: T;
  readonly options: WriteOptions;
}

/**
 * Reads and decodes the body of a POST that is not stored through a view (bindings, reviews),
 * applying fieldValidation as the create handler does: Strict refuses unknown and duplicate
 * fields with a 400, Warn (the default) adds a Warning header each, Ignore drops them.
 */
export async function readCreateOnlyBody<T>(
  r: HandlerRequest,
  limit: number,
  kind: string,
  decode: (body: unknown) => { object: T; unknownFields: readonly string[] },
  version = 'v1',
): Promise<CreateOnlyBody<T>> {
  const options = parseCreateOptions(r.url.searchParams);
  const raw = await readBody(r.req, limit);
  const decoded = decode(await decodeObjectBody(r.req, raw, kind));
  const directive = options.fieldValidation;
  if (directive === 'Ignore') return { object: decoded.object, options };
  const problems = strictProblems(decoded, jsonDuplicates(r.req, raw));
  if (problems.length > 0 && directive === 'Strict') {
    throw badRequest(
      `${kind} in version "${version}" cannot be handled as a ${kind}: strict decoding error: ${problems.join(', ')}`,
    );
  }
  if (problems.length > 0) addWarnings(r.res, problems);
  return { object: decoded.object, options };
}

/**
 * rest.EnsureObjectNamespaceMatchesRequestNamespace: an object without a namespace takes the
 * request's; a cluster-scoped request clears it; any other difference is a 400.
 */
export function namespaceForCreate(objectNamespace: string | undefined, requestNamespace: string): string {
  const sent = objectNamespace ?? '';
  if (sent === '' || sent === requestNamespace || requestNamespace === '') return requestNamespace;
  throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
}
