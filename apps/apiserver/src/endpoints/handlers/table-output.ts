import { negotiateTable, parseIncludeObject, type TableOptions } from '../table.js';
import type { HandlerRequest } from './scope.js';

/**
 * The Table options when the client asked for server-side printing (kubectl's human output);
 * undefined for plain JSON.
 */
export function tableOptions({ req, url }: HandlerRequest): TableOptions | undefined {
  const version = negotiateTable(req.headers.accept);
  if (!version) return undefined;
  return {
    version,
    includeObject: parseIncludeObject(url.searchParams.get('includeObject')),
    now: new Date(),
  };
}
