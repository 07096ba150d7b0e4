import { createServer, request, type Server } from 'node:https';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestCert } from '@keel/testing';

/** What the test server's handler sends back: anything JSON-serialisable. */
export type Handler = (req: IncomingMessage) => Promise<unknown>;

export interface TlsServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * An HTTPS server on 127.0.0.1 that requests (never requires) client certificates verified
 * against `clientCA`, as the API server's listener does, and answers every request with the JSON
 * of `handler(req)`.
 */
export async function startTlsServer(
  server: TestCert,
  clientCA: string,
  handler: Handler,
): Promise<TlsServer> {
  const srv: Server = createServer(
    { cert: server.certPem, key: server.keyPem, ca: clientCA, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      handler(req).then(
        (body) => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(body ?? null));
        },
        (err: unknown) => {
          res.statusCode = 500;
          res.end(String(err));
        },
      );
    },
  );
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}

export interface ClientOptions {
  readonly servingCA: TestCert;
  /** The client certificate (and intermediates appended to certPem) to present, if any. */
  readonly cert?: TestCert;
  readonly headers?: OutgoingHttpHeaders;
}

/** One request on a fresh connection; resolves to the parsed JSON body. */
export function tlsRequest(port: number, opts: ClientOptions): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/',
        agent: false,
        ca: opts.servingCA.certPem,
        ...(opts.cert ? { cert: opts.cert.certPem, key: opts.cert.keyPem } : {}),
        headers: opts.headers ?? {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new Error(`status ${res.statusCode}: ${text}`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A request for authenticators that do not look at the connection. */
export function plainRequest(headers: readonly (readonly [string, string])[]): {
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
} {
  const rawHeaders = headers.flatMap(([n, v]) => [n, v]);
  const merged: Record<string, string | string[] | undefined> = {};
  for (const [n, v] of headers) {
    const k = n.toLowerCase();
    const prev = merged[k];
    merged[k] = prev === undefined ? v : `${String(prev)}, ${v}`;
  }
  return { headers: merged, rawHeaders };
}
