import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { connect } from 'node:tls';
import { ADMIN_TOKEN, type TestApiServer } from '@keel/testing';

/**
 * Raw HTTPS helpers on node:https, for what TestApiServer.request cannot do: keep-alive
 * connections (its undici agent never keeps one, so every answer says `Connection: close`),
 * client certificates, bodies sent in pieces and streamed watch bodies.
 */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

export interface RawOptions {
  readonly method?: string;
  /** Bearer token; null sends no Authorization header. @default ADMIN_TOKEN */
  readonly token?: string | null;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** A keep-alive agent from {@link keepAliveAgent}; default: a fresh connection per request. */
  readonly agent?: Agent;
  readonly cert?: { readonly certPem: string; readonly keyPem: string };
}

/** A keep-alive agent trusting the server's CA: responses tell whether the server closes. */
export function keepAliveAgent(server: TestApiServer): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1, ca: server.ca });
}

function collect(res: IncomingMessage): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    res.on('error', reject);
  });
}

/** Starts a request and returns it unsent-ended, with a promise of its response. */
export function open(
  server: TestApiServer,
  path: string,
  opts: RawOptions = {},
): { req: ClientRequest; response: Promise<IncomingMessage> } {
  const headers: Record<string, string> = { ...opts.headers };
  const token = opts.token === undefined ? ADMIN_TOKEN : opts.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  const url = new URL(server.url);
  let req!: ClientRequest;
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: opts.method ?? 'GET',
        headers,
        ca: server.ca,
        ...(opts.agent ? { agent: opts.agent } : { agent: false }),
        ...(opts.cert ? { cert: opts.cert.certPem, key: opts.cert.keyPem } : {}),
      },
      resolve,
    );
    req.on('error', reject);
  });
  return { req, response };
}

/** One complete request. */
export async function rawRequest(
  server: TestApiServer,
  path: string,
  opts: RawOptions = {},
): Promise<RawResponse> {
  const { req, response } = open(server, path, opts);
  req.end(opts.body);
  return collect(await response);
}

/**
 * A write whose body arrives in two parts: the headers and `first` go out now (the server has
 * admitted the request), the rest when `finish` is called. Content-Length covers both parts.
 */
export function slowBody(
  server: TestApiServer,
  path: string,
  body: string,
  opts: RawOptions = {},
): { finish(): Promise<RawResponse>; response: Promise<RawResponse> } {
  const split = Math.floor(body.length / 2);
  const { req, response } = open(server, path, {
    method: 'POST',
    ...opts,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...opts.headers,
    },
  });
  req.write(body.slice(0, split));
  const collected = response.then(collect);
  collected.catch(() => undefined);
  return {
    response: collected,
    finish() {
      req.end(body.slice(split));
      return collected;
    },
  };
}

export interface WatchStream {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Every complete line received so far, parsed. */
  readonly events: { type: string; object: Record<string, unknown> }[];
  /** Resolves when the stream ends cleanly, rejects on a connection error. */
  readonly ended: Promise<void>;
  /** Resolves once `count` events have arrived. */
  waitForEvents(count: number, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens a watch and parses its newline-delimited JSON as it arrives. */
export async function openWatch(
  server: TestApiServer,
  path: string,
  opts: RawOptions = {},
): Promise<WatchStream> {
  const { req, response } = open(server, path, opts);
  req.end();
  const res = await response;
  const events: WatchStream['events'] = [];
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim() !== '') events.push(JSON.parse(line) as WatchStream['events'][number]);
    }
  });
  const ended = new Promise<void>((resolve, reject) => {
    res.on('end', () => resolve());
    res.on('error', reject);
    res.on('aborted', () => reject(new Error('watch stream aborted')));
  });
  ended.catch(() => undefined);
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    events,
    ended,
    async waitForEvents(count, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${events.length} of ${count} watch events arrived`);
        await sleep(20);
      }
    },
    close: () => res.destroy(),
  };
}

/**
 * Sends a GET with `target` written verbatim in the request line (clients normalise targets,
 * so this is the only way to send one like `http://[`) and returns the raw HTTP response text.
 */
export function rawTarget(server: TestApiServer, target: string, token = ADMIN_TOKEN): Promise<string> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    // write, not end: a half-closed client may lose an answer that is written asynchronously;
    // `Connection: close` makes the server close once it has answered.
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: server.ca }, () =>
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
      ),
    );
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `fn` and returns its result with the elapsed milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - start };
}

/** Polls `fn` until `ok` holds for its result; the last result when time runs out. */
export async function eventually<T>(
  fn: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (ok(value) || Date.now() > deadline) return value;
    await sleep(100);
  }
}
