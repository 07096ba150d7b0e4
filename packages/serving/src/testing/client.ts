import { request, type RequestOptions } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
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
