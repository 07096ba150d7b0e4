import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { connect, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';

/**
 * An HTTP/2 session (TLS, ALPN h2 only) to `url`, trusting `ca`; resolves once the server's first
 * SETTINGS frame arrived, so `remoteSettings` are the server's.
 */
export function http2Session(url: string, ca: string): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = connect(url, { ca, ALPNProtocols: ['h2'] });
    session.once('remoteSettings', () => resolve(session));
    session.once('error', reject);
  });
}

export interface Http2Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** One request on `session`: GET unless `:method` says otherwise. */
export function http2Request(
  session: ClientHttp2Session,
  path: string,
  headers: OutgoingHttpHeaders = {},
  body?: string,
): Promise<Http2Reply> {
  return new Promise((resolve, reject) => {
    const stream = session.request(
      { ':method': 'GET', ':path': path, ...headers },
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
    stream.on('end', () => resolve({ status, headers: got, text }));
    stream.on('error', reject);
    if (body !== undefined) stream.end(body);
  });
}

/** A watch on one stream of `session`, read line by line. */
export interface Http2Watch {
  readonly stream: ClientHttp2Stream;
  readonly status: Promise<number>;
  /** Parsed lines so far. */
  readonly events: Record<string, unknown>[];
  /** Resolves when the server ends the stream cleanly; rejects on a reset or session error. */
  readonly ended: Promise<void>;
}

export function http2Watch(
  session: ClientHttp2Session,
  path: string,
  headers: OutgoingHttpHeaders = {},
): Http2Watch {
  const stream = session.request({ ':method': 'GET', ':path': path, ...headers });
  const events: Record<string, unknown>[] = [];
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (c: string) => {
    buffer += c;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const l of lines) if (l !== '') events.push(JSON.parse(l) as Record<string, unknown>);
  });
  const status = new Promise<number>((resolve, reject) => {
    stream.once('response', (h) => resolve(Number(h[':status'])));
    stream.once('error', reject);
  });
  const ended = new Promise<void>((resolve, reject) => {
    stream.once('end', () => resolve());
    stream.once('error', reject);
    stream.once('close', () => {
      if (stream.rstCode !== undefined && stream.rstCode !== 0)
        reject(new Error(`stream reset: ${stream.rstCode}`));
      else resolve();
    });
  });
  // Only the promises report errors; an unobserved rejection must not fail the run.
  status.catch(() => undefined);
  ended.catch(() => undefined);
  return { stream, status, events, ended };
}
