import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse, ServerHttp2Session } from 'node:http2';
import type { TLSSocket } from 'node:tls';

/**
 * Header fields that only mean something to an HTTP/1.x connection (RFC 9113 8.2.2). Node refuses
 * a response carrying one on an HTTP/2 stream (ERR_HTTP2_INVALID_CONNECTION_HEADERS), while the
 * handlers and filters, written once for both protocols, set `Connection: close` (GOAWAY,
 * draining, Retry-After, bad targets) and `Transfer-Encoding: chunked` (watches).
 */
const CONNECTION_SPECIFIC = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);

/** True for a request that arrived on an HTTP/2 stream (Node's compatibility objects). */
export function isHttp2Request(req: IncomingMessage): boolean {
  return req.httpVersionMajor === 2;
}

/** The HTTP/2 session a request arrived on, or undefined for HTTP/1.x. */
export function http2SessionOf(req: IncomingMessage): ServerHttp2Session | undefined {
  if (!isHttp2Request(req)) return undefined;
  return (req as unknown as Http2ServerRequest).stream.session as ServerHttp2Session | undefined;
}

/**
 * Makes an HTTP/2 exchange behave, for code written against HTTP/1.1, as Go's server does:
 *
 * - `Connection: close` from a handler becomes a GOAWAY on the session as the headers are sent
 *   (Go's http2 server starts a graceful shutdown of the connection when a handler's header says
 *   so): the streams in flight finish, the client opens a new connection for its next request. The other connection-specific
 *   fields are dropped; a status message (`writeHead(code, 'text', ...)`) does not exist in
 *   HTTP/2 and is dropped too instead of raising a runtime warning per response.
 * - `req.socket` / `res.socket` are the session's TLS socket, not Node's proxy for it: the peer
 *   address, the client certificate and the `instanceof TLSSocket` checks of authentication and
 *   audit then read the same as on HTTP/1.1. Nothing in the request path writes to or ends the
 *   socket itself (the drainer closes sessions, not sockets).
 *
 * Own properties of the two objects, so they survive Express swapping their prototypes.
 */
export function adaptHttp2Exchange(req: IncomingMessage, res: ServerResponse): void {
  const session = http2SessionOf(req);
  if (session === undefined) return;
  const socket = session.socket as TLSSocket;
  for (const target of [req, res]) {
    Object.defineProperty(target, 'socket', { value: socket, configurable: true, writable: true });
    Object.defineProperty(target, 'connection', { value: socket, configurable: true, writable: true });
  }
  let goaway = false;
  const keep = (name: string, value: OutgoingHttpHeader | undefined): boolean => {
    const lower = name.toLowerCase();
    if (!CONNECTION_SPECIFIC.has(lower)) return true;
    if (lower === 'connection' && /(^|,)\s*close\s*(,|$)/i.test(String(value))) goaway = true;
    return false;
  };
  const h2res = res as unknown as Http2ServerResponse;
  const setHeader = h2res.setHeader.bind(h2res);
  const writeHead = h2res.writeHead.bind(h2res) as (code: number, headers?: OutgoingHttpHeaders) => unknown;
  Object.defineProperty(res, 'setHeader', {
    configurable: true,
    writable: true,
    value(name: string, value: OutgoingHttpHeader) {
      if (keep(name, value)) setHeader(name, value);
      return res;
    },
  });
  // Go sends the GOAWAY as the headers go out, before the body: a client then sees it before
  // the response ends and sends its next request on a new connection instead of on this one,
  // where the stream would be refused.
  const goawayOnceSent = () => {
    if (goaway && h2res.headersSent && !session.closed && !session.destroyed) session.close();
  };
  Object.defineProperty(res, 'writeHead', {
    configurable: true,
    writable: true,
    value(code: number, ...rest: unknown[]) {
      const headers = rest.find((r) => typeof r === 'object' && r !== null);
      writeHead(code, headers === undefined ? undefined : withoutConnectionHeaders(headers, keep));
      goawayOnceSent();
      return res;
    },
  });
  // write() and end() send the headers themselves when writeHead was not called.
  for (const name of ['write', 'end'] as const) {
    const original = h2res[name].bind(h2res) as (...args: unknown[]) => unknown;
    Object.defineProperty(res, name, {
      configurable: true,
      writable: true,
      value(...args: unknown[]) {
        const result = original(...args);
        goawayOnceSent();
        return result;
      },
    });
  }
  // A response reset before its headers went out still says the connection should go.
  res.once('close', () => {
    if (goaway && !session.closed && !session.destroyed) session.close();
  });
}

function withoutConnectionHeaders(
  headers: object,
  keep: (name: string, value: OutgoingHttpHeader | undefined) => boolean,
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  if (Array.isArray(headers)) {
    // writeHead's flat [name, value, name, value, ...] form.
    for (let i = 0; i + 1 < headers.length; i += 2) {
      const name = String(headers[i]);
      const value = headers[i + 1] as OutgoingHttpHeader;
      if (keep(name, value)) out[name] = value;
    }
    return out;
  }
  for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) {
    if (keep(name, value)) out[name] = value;
  }
  return out;
}
