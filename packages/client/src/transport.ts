/**
 * One HTTP(S) connection pool to the API server: TLS and credentials from the Connection,
 * keep-alive, URL building, and the mapping of failures to StatusError / NetworkError.
 */
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createSecureContext, type ConnectionOptions } from 'node:tls';
import type * as undiciModule from 'undici';
import type { Agent, Dispatcher } from 'undici';
import { dialConnector, type Dialer } from './dial-connector.js';
import { StatusError } from '@keel/apimachinery';
import type { Connection } from './connection-config.js';
import { errorFromResponse, networkError, NetworkError } from './errors.js';

export type QueryValue = string | number | boolean | undefined;
export type Query = Readonly<Record<string, QueryValue>>;

export interface SendOptions {
  readonly query?: Query | undefined;
  readonly body?: string | undefined;
  readonly contentType?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Client-side deadline for the whole exchange (headers and body); 0 or undefined: none. */
  readonly timeoutMs?: number | undefined;
}

export interface StreamResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Readable;
}

/** client-go re-reads a token file at most once a minute. */
const TOKEN_FILE_TTL_MS = 60_000;

type Undici = typeof undiciModule;
/**
 * undici loads on the first request, not with this module: loading it is a good part of a daemon's
 * start-up, and most Transports (webhooks, an API server's clients) are built long before, or
 * without ever, sending anything.
 */
let undici: Promise<Undici> | undefined;
const loadUndici = (): Promise<Undici> => (undici ??= import('undici'));

/**
 * Loads undici now rather than at the first request: for a process that has time to spare before
 * it knows where to connect (a daemon spawned before its arguments, apps/keel's launcher).
 */
export async function preloadTransport(): Promise<void> {
  await loadUndici();
}

export class Transport {
  private agent: Promise<Agent> | undefined;
  private readonly tls: ConnectionOptions;
  private readonly dial: Dialer | undefined;
  private readonly keepAliveTimeoutMs: number;
  private closed = false;
  private token: string | undefined;
  private tokenReadAt = 0;

  constructor(
    readonly connection: Connection,
    private readonly userAgent: string,
    keepAliveTimeoutMs = 30_000,
    /** Connections go through it (an egress proxy) instead of straight to the server. */
    dial?: Dialer,
  ) {
    const c = connection;
    this.tls = {
      rejectUnauthorized: !c.insecureSkipTLSVerify,
      ...(c.ca ? { ca: c.ca } : {}),
      ...(c.cert && c.key ? { cert: c.cert, key: c.key } : {}),
      ...(c.serverName ? { servername: c.serverName } : {}),
    };
    this.dial = dial;
    this.keepAliveTimeoutMs = keepAliveTimeoutMs;
    this.token = c.token;
    this.tokenReadAt = Date.now();
  }

  private async dispatch(url: URL, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>) {
    const { Agent, errors, request } = await loadUndici();
    // As undici's own pool answers once closed, even when close() came before any request.
    if (this.closed) throw new errors.ClientDestroyedError();
    const dispatcher = await (this.agent ??= Promise.resolve(new Agent(this.agentOptions())));
    return request(url, { ...options, dispatcher });
  }

  /**
   * The pool's options, with one TLS context for all its connections: tls.connect makes one per
   * connection otherwise, and making one (the CA parsed, Node's root store copied) costs more
   * than the handshake it serves.
   */
  private agentOptions(): Agent.Options {
    const { ca, cert, key, ...perConnection } = this.tls;
    const tls = { ...perConnection, secureContext: createSecureContext({ ca, cert, key }) };
    return {
      keepAliveTimeout: this.keepAliveTimeoutMs,
      connect: this.dial ? dialConnector(this.dial, tls) : tls,
    };
  }

  url(path: string, query: Query = {}): URL {
    const base = this.connection.server.href.replace(/\/+$/, '');
    const url = new URL(base + (path.startsWith('/') ? path : `/${path}`));
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  /** Sends a request and returns the body text of a 2xx answer; throws for anything else. */
  async send(method: string, path: string, opts: SendOptions = {}): Promise<string> {
    const url = this.url(path, opts.query);
    const timeout = opts.timeoutMs ? AbortSignal.timeout(opts.timeoutMs) : undefined;
    const signal = combine(opts.signal, timeout);
    try {
      const res = await this.dispatch(url, {
        method,
        headers: this.headers(opts),
        body: opts.body,
        ...(signal ? { signal } : {}),
      });
      const text = await res.body.text();
      if (res.statusCode >= 200 && res.statusCode < 300) return text;
      throw errorFromResponse(res.statusCode, res.headers, text);
    } catch (err) {
      throw this.failure(method, url, err, opts.signal, timeout, opts.timeoutMs);
    }
  }

  /** Opens a streaming GET (a watch): never timed out or rate limited; the caller reads the body. */
  async stream(path: string, opts: SendOptions = {}): Promise<StreamResponse> {
    const url = this.url(path, opts.query);
    try {
      const res = await this.dispatch(url, {
        method: 'GET',
        headers: this.headers(opts),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      if (res.statusCode >= 200 && res.statusCode < 300) return res;
      throw errorFromResponse(res.statusCode, res.headers, await res.body.text());
    } catch (err) {
      throw this.failure('GET', url, err, opts.signal, undefined, undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await (await this.agent)?.close();
  }

  private failure(
    method: string,
    url: URL,
    err: unknown,
    caller: AbortSignal | undefined,
    timeout: AbortSignal | undefined,
    timeoutMs: number | undefined,
  ): unknown {
    if (err instanceof StatusError) return err;
    // The caller's own cancellation stays what it was, so `signal.reason` comes back unchanged.
    if (caller?.aborted) return caller.reason;
    if (timeout?.aborted) {
      return new NetworkError(method, url.href, `timed out after ${timeoutMs}ms`, true, { cause: err });
    }
    return networkError(method, url.href, err);
  }

  private headers(opts: SendOptions): Record<string, string> {
    const h: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.userAgent,
      ...opts.headers,
    };
    if (opts.contentType) h['content-type'] = opts.contentType;
    const token = this.currentToken();
    const { username, password } = this.connection;
    if (token) h['authorization'] = `Bearer ${token}`;
    else if (username !== undefined || password !== undefined) {
      h['authorization'] = `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64')}`;
    }
    return h;
  }

  private currentToken(): string | undefined {
    const file = this.connection.tokenFile;
    if (file && Date.now() - this.tokenReadAt > TOKEN_FILE_TTL_MS) {
      this.tokenReadAt = Date.now();
      try {
        const read = readFileSync(file, 'utf8').trim();
        if (read) this.token = read;
      } catch {
        // A token file mid-rotation may be briefly missing; the last good token is still best.
      }
    }
    return this.token;
  }
}

function combine(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a && b) return AbortSignal.any([a, b]);
  return a ?? b;
}
