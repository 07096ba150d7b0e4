import { IncomingMessage, ServerResponse } from 'node:http';
import { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { isHttp2Request } from './exchange.js';

/**
 * What the bridge needs of an Express 5 application: its `handle` (present at run time, absent
 * from @types/express) sets the prototypes of req and res to `this.request` / `this.response`
 * before routing.
 */
export interface PrototypeSwappingApp {
  readonly request: object;
  readonly response: object;
}

type Handle = (this: PrototypeSwappingApp, req: IncomingMessage, res: ServerResponse) => void;

/**
 * Lets an Express 5 app serve HTTP/2 streams as well as HTTP/1.1 requests.
 *
 * Express gives every request the prototype `app.request` (its helpers on top of
 * http.IncomingMessage.prototype), and every response `app.response` (on top of
 * http.ServerResponse.prototype). An HTTP/2 request is an Http2ServerRequest, whose state lives
 * behind that class's own accessors: with Express's prototype it loses them (no headers, no
 * body, writes that throw). So for HTTP/2 the app is run with a copy of Express's layers whose
 * base is Http2ServerRequest/Http2ServerResponse instead, through a view of the app that differs
 * from it only in `request` and `response`. Nothing global is patched and HTTP/1.1 requests take
 * the app exactly as before.
 *
 * Not a library: the maintained-looking ones (http2-express, http2-express-bridge) patch
 * Express's shared application prototype or reroute its `request` getter through mutable
 * one-shot state; this is the same idea in a few lines, scoped to one app.
 */
export function http2Compatible(
  app: PrototypeSwappingApp,
): (req: IncomingMessage, res: ServerResponse) => void {
  const handle = (app as { handle?: unknown }).handle;
  if (typeof handle !== 'function')
    throw new TypeError('http2Compatible: the app has no handle(); is it Express 5?');
  const run = handle as Handle;
  const view: PrototypeSwappingApp = Object.create(app, {
    request: { value: rebase(app.request, IncomingMessage.prototype, Http2ServerRequest.prototype) },
    response: { value: rebase(app.response, ServerResponse.prototype, Http2ServerResponse.prototype) },
  }) as PrototypeSwappingApp;
  return (req, res) => {
    run.call(isHttp2Request(req) ? view : app, req, res);
  };
}

/**
 * The chain from `top` down to (not including) `base`, flattened onto one object whose prototype
 * is `newBase`: the nearest definition of a name wins, as it would in the original chain.
 */
function rebase(top: object, base: object, newBase: object): object {
  const layers: object[] = [];
  for (let p: object | null = top; p !== null && p !== base; p = Object.getPrototypeOf(p) as object | null) {
    layers.push(p);
  }
  const out: object = Object.create(newBase) as object;
  for (const layer of layers.reverse()) {
    for (const key of Reflect.ownKeys(layer)) {
      const d = Object.getOwnPropertyDescriptor(layer, key);
      if (d) Object.defineProperty(out, key, d);
    }
  }
  return out;
}

/** The request and response classes the HTTP/1.1 side of the listener constructs. */
export interface Http1Classes {
  readonly IncomingMessage: typeof IncomingMessage;
  readonly ServerResponse: typeof ServerResponse;
}

/**
 * HTTP/1.1 request and response classes whose prototypes are the app's `request` and `response`
 * (Express's helpers on top of Node's), for the listener to construct (SecureServerOptions.http1).
 * Express would otherwise swap the prototype of every request and response as it arrives, and an
 * object whose prototype changes after construction is slow to change and leaves every later
 * property access on it slower (it was 3–4 % of the create path's profile); the app's `handle`
 * skips the swap for objects that already inherit from its prototypes.
 */
export function http1Classes(app: PrototypeSwappingApp): Http1Classes {
  class Request extends IncomingMessage {}
  // ServerResponse's generic request type cannot be kept by a subclass; the class is only
  // constructed by Node, with the request it made.
  const Response = class extends ServerResponse {} as typeof ServerResponse;
  // Prototype objects are changed once here, before any instance exists.
  Object.setPrototypeOf(Request.prototype, app.request);
  Object.setPrototypeOf(Response.prototype, app.response);
  return { IncomingMessage: Request, ServerResponse: Response };
}
