/**
 * Protobuf over HTTPS for the protobuf suites: requests whose bodies and answers are bytes, and
 * watch streams read as length-prefixed frames (what TestApiServer.request, which works in
 * text, cannot do).
 */
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ADMIN_TOKEN, type TestApiServer } from '@keel/testing';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

export interface BytesResponse {
  readonly status: number;
  readonly type: string;
  readonly body: Buffer;
}

export interface BytesOptions {
  readonly accept?: string;
  readonly body?: Buffer | string;
  /** @default PROTOBUF when there is a body */
  readonly contentType?: string;
  /** Bearer token. @default ADMIN_TOKEN */
  readonly token?: string;
  /** Send the body in chunks (Transfer-Encoding: chunked), without a Content-Length. */
  readonly chunked?: boolean;
}

/** One request (as the admin unless told); the body is sent with its Content-Length unless chunked. */
export function sendBytes(
  server: TestApiServer,
  method: string,
  path: string,
  opts: BytesOptions = {},
): Promise<BytesResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${opts.token ?? ADMIN_TOKEN}` };
    if (opts.accept !== undefined) headers['accept'] = opts.accept;
    if (opts.body !== undefined) {
      headers['content-type'] = opts.contentType ?? PROTOBUF;
      if (opts.chunked) headers['transfer-encoding'] = 'chunked';
      else headers['content-length'] = String(Buffer.byteLength(opts.body));
    }
    const req = httpsRequest(server.url + path, { method, headers, ca: server.ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.chunked && opts.body !== undefined) {
      const body = Buffer.from(opts.body);
      const half = Math.floor(body.length / 2);
      req.write(body.subarray(0, half));
      req.end(body.subarray(half));
    } else req.end(opts.body);
  });
}

export interface FrameStream {
  readonly res: IncomingMessage;
  /** Every complete frame so far (the WatchEvent message, without its length prefix). */
  readonly frames: Buffer[];
  /** The next frame not yet returned, waiting for it when it has not arrived. */
  next(): Promise<Buffer>;
  close(): void;
}

/** A protobuf watch: its response, the frames collected as they arrive. */
export function protobufWatch(server: TestApiServer, path: string, accept = PROTOBUF): Promise<FrameStream> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, accept };
    const req = httpsRequest(server.url + path, { headers, ca: server.ca }, (res) => {
      let pending = Buffer.alloc(0);
      const frames: Buffer[] = [];
      const waiters: (() => void)[] = [];
      res.on('data', (c: Buffer) => {
        pending = Buffer.concat([pending, c]);
        while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
          const len = pending.readUInt32BE(0);
          frames.push(pending.subarray(4, 4 + len));
          pending = pending.subarray(4 + len);
        }
        waiters.splice(0).forEach((w) => w());
      });
      let read = 0;
      resolve({
        res,
        frames,
        async next() {
          while (frames.length <= read) await new Promise<void>((r) => waiters.push(r));
          return frames[read++] as Buffer;
        },
        close: () => res.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}
