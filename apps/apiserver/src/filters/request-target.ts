import type { IncomingMessage, ServerResponse } from 'node:http';
import { auditIDOf } from './audit-id.js';

/**
 * The request target as a URL, or undefined when it cannot be one (e.g. `http://[` or a port
 * over 65535, which Node's parser lets through): the filters and the drainer must survive such a
 * request. A target starting with `//` is a path, as Go's ParseRequestURI reads it (not a
 * scheme-relative URL naming a host): `//x/api/v1/secrets` is the path Express routes, so it is
 * the path request info and authorization see too.
 */
export function parseTarget(target: string | undefined): URL | undefined {
  const t = target ?? '/';
  try {
    return t.startsWith('/') ? new URL(`https://localhost${t}`) : new URL(t);
  } catch {
    return undefined;
  }
}

/** parseTarget for a handler behind withRoutableTarget, where the target is known to parse. */
export function requestURL(target: string | undefined): URL {
  return parseTarget(target) ?? new URL('https://localhost/');
}

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * The target in origin form (`/path?query`), as every handler matches it: an absolute-form target
 * (`https://host/livez`, which Go serves by its path) loses its scheme and authority. undefined
 * for a target that is neither, or that no URL parser accepts.
 */
function originForm(target: string): string | undefined {
  if (parseTarget(target) === undefined) return undefined;
  if (target.startsWith('/')) return target;
  if (!ABSOLUTE_FORM.test(target)) return undefined;
  const rest = target.replace(ABSOLUTE_FORM, '');
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * Go's net/http answer to a request target it cannot parse, written before any handler runs
 * (with Keel's Audit-ID, which every response carries).
 */
export function writeBadRequestTarget(req: IncomingMessage, res: ServerResponse): void {
  const body = '400 Bad Request';
  res.writeHead(400, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
    'Audit-ID': auditIDOf(req),
  });
  res.end(body);
}

/**
 * In front of the Express app: a target it cannot route would otherwise skip every filter and
 * get Express's own HTML 404 page, and one `new URL` refuses would throw in the filters. Targets
 * are brought to origin form first.
 */
export function withRoutableTarget(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const target = originForm(req.url ?? '/');
    if (target === undefined) {
      writeBadRequestTarget(req, res);
      return;
    }
    req.url = target;
    handler(req, res);
  };
}
