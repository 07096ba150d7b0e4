import { request, type RequestOptions } from 'node:https';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import {
  connect as http2Connect,
  type ClientHttp2Session,
  type SecureClientSessionOptions,
} from 'node:http2';
import { connect, type ConnectionOptions } from 'node:tls';
import { certificateNames } from '../tls/cert-key.js';

export interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One HTTPS request on a fresh connection (agent: false), unless an agent is given. */
export function httpsRequest(port: number, opts: RequestOptions & { body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const { body, ...rest } = opts;
    const req = request({ host: '127.0.0.1', port, path: '/', agent: false, ...rest }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export type Handshake =
  | {
      readonly ok: true;
      readonly protocol: string | null;
      readonly cipher: string;
      readonly subjectCN: string;
      readonly authorized: boolean;
    }
  | { readonly ok: false; readonly code: string };

/** A bare TLS handshake against 127.0.0.1:port; reports what was negotiated or the error code. */
export function handshake(port: number, opts: ConnectionOptions = {}): Promise<Handshake> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...opts }, () => {
      const peer = socket.getPeerCertificate();
      resolve({
        ok: true,
        protocol: socket.getProtocol(),
        cipher: socket.getCipher().name,
        subjectCN: certificateNames(peer.raw).commonName,
        authorized: socket.authorized,
      });
      socket.end();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve({ ok: false, code: err.code ?? err.message }));
  });
}

/**
 * An HTTP/2 session to 127.0.0.1:port over TLS (ALPN h2 only); resolves once the server's first
 * SETTINGS frame has arrived, so `remoteSettings` are the server's.
 */
export function h2Connect(port: number, opts: SecureClientSessionOptions = {}): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2Connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false, ...opts });
    session.once('remoteSettings', () => resolve(session));
    session.once('error', reject);
  });
}

export interface H2Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One request on an open session; `:method` GET and `:path` / unless given. */
export function h2Request(
  session: ClientHttp2Session,
  headers: OutgoingHttpHeaders = {},
  body?: string,
): Promise<H2Reply> {
  return new Promise((resolve, reject) => {
    const stream = session.request(
      { ':method': 'GET', ':path': '/', ...headers },
      { endStream: body === undefined },
    );
    let status = 0;
    let got: IncomingHttpHeaders = {};
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => {
      status = Number(h[':status']);
      got = h;
    });
    stream.on('data', (c: string) => (text += c));
    stream.on('end', () => resolve({ status, headers: got, body: text }));
    stream.on('error', reject);
    if (body !== undefined) stream.end(body);
  });
}
