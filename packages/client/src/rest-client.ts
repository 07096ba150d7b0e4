/**
 * The REST client: verbs over API paths (`/api/v1/...`, `/apis/<group>/<version>/...`) with JSON
 * bodies, client-side throttling (`--platform-api-qps`/`--platform-api-burst`) and Status errors.
 * It speaks JSON only: protobuf, the default content type of the scheduler's clientConnection, is
 * something this client cannot encode, so it falls back to JSON as client-go does for types
 * without a protobuf form.
 */
import { keelVersion, type Status } from '@keel/apimachinery';
import type { Connection } from './connection-config.js';
import type { Dialer } from './dial-connector.js';
import { newRateLimiter, type RateLimiter } from './rate-limiter.js';
import { Transport, type Query, type StreamResponse } from './transport.js';
import type { KubeList, KubeObject } from './types.js';
import { watch, type WatchEvent, type WatchOptions } from './watch.js';

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

export const patchMediaTypes: Readonly<Record<PatchType, string>> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface CallOptions {
  /** Extra query parameters; undefined values are left out. */
  readonly query?: Query;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Overrides the client's default per-request timeout (0: none). */
  readonly timeoutMs?: number;
  /**
   * The caller never reads a successful answer: its body is not parsed and the call resolves
   * undefined (an error still becomes a StatusError). A scheduler's writes answer with whole pods
   * it already has from its watch; parsing them cost it about 3% of its CPU.
   */
  readonly discardBody?: boolean;
}

export interface ListOptions extends CallOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  readonly timeoutSeconds?: number;
}

export interface WriteOptions extends CallOptions {
  readonly dryRun?: boolean;
  readonly fieldManager?: string;
  readonly fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
}

export interface PatchOptions extends WriteOptions {
  /** Server-side apply only: take over fields owned by other managers. */
  readonly force?: boolean;
}

export interface DeleteOptions extends CallOptions {
  readonly dryRun?: boolean;
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
}

export interface RestClientOptions {
  /** Default `keel-scheduler/<version>`. The server derives the default field manager from it. */
  readonly userAgent?: string;
  /** Requests per second; <= 0 disables throttling. Default 5 (client-go's default). */
  readonly qps?: number;
  /** Bucket size of the limiter. Default 10 (client-go's default). */
  readonly burst?: number;
  /** A limiter to use instead of one built from qps/burst (e.g. shared between clients); null: none. */
  readonly rateLimiter?: RateLimiter | null;
  /** Default per-request timeout in ms (never applied to watch streams); 0: none. */
  readonly timeoutMs?: number;
  readonly keepAliveTimeoutMs?: number;
  /** Dial through this (an egress proxy's tunnel) instead of connecting directly. */
  readonly dial?: Dialer | undefined;
}

export interface RequestOptions extends CallOptions {
  /** Sent as JSON unless it is already a string. */
  readonly body?: unknown;
  readonly contentType?: string;
}

export const defaultUserAgent = `keel-scheduler/${keelVersion}`;

export class RestClient {
  private readonly transport: Transport;
  private readonly limiter: RateLimiter | undefined;
  private readonly timeoutMs: number;

  constructor(
    readonly connection: Connection,
    options: RestClientOptions = {},
  ) {
    this.transport = new Transport(
      connection,
      options.userAgent ?? defaultUserAgent,
      options.keepAliveTimeoutMs,
      options.dial,
    );
    this.limiter =
      options.rateLimiter === undefined
        ? newRateLimiter(options.qps ?? 5, options.burst ?? 10)
        : (options.rateLimiter ?? undefined);
    this.timeoutMs = options.timeoutMs ?? 0;
  }

  get<T = KubeObject>(path: string, opts: CallOptions = {}): Promise<T> {
    return this.request<T>('GET', path, opts);
  }

  list<T = KubeList>(path: string, opts: ListOptions = {}): Promise<T> {
    const { labelSelector, fieldSelector, limit, resourceVersion, resourceVersionMatch, timeoutSeconds } =
      opts;
    const query: Query = {
      labelSelector,
      fieldSelector,
      limit,
      continue: opts.continue,
      resourceVersion,
      resourceVersionMatch,
      timeoutSeconds,
      ...opts.query,
    };
    return this.request<T>('GET', path, { ...opts, query });
  }

  create<T = KubeObject>(path: string, body: unknown, opts: WriteOptions = {}): Promise<T> {
    return this.request<T>('POST', path, { ...opts, body, query: writeQuery(opts) });
  }

  update<T = KubeObject>(path: string, body: unknown, opts: WriteOptions = {}): Promise<T> {
    return this.request<T>('PUT', path, { ...opts, body, query: writeQuery(opts) });
  }

  patch<T = KubeObject>(path: string, type: PatchType, body: unknown, opts: PatchOptions = {}): Promise<T> {
    const query = { ...writeQuery(opts), force: opts.force, ...opts.query };
    return this.request<T>('PATCH', path, { ...opts, body, contentType: patchMediaTypes[type], query });
  }

  /** Resolves with what the server answers: a Success Status, or the object for some resources. */
  delete<T = Status | KubeObject>(path: string, opts: DeleteOptions = {}): Promise<T> {
    const { gracePeriodSeconds, propagationPolicy, preconditions } = opts;
    const options = { gracePeriodSeconds, propagationPolicy, preconditions };
    const hasBody = Object.values(options).some((v) => v !== undefined);
    return this.request<T>('DELETE', path, {
      ...opts,
      query: { dryRun: opts.dryRun ? 'All' : undefined, ...opts.query },
      body: hasBody ? { kind: 'DeleteOptions', apiVersion: 'v1', ...options } : undefined,
    });
  }

  /** A watch stream (not throttled, no timeout); see watch.ts. */
  watch<T = KubeObject>(path: string, opts: WatchOptions = {}): AsyncIterable<WatchEvent<T>> {
    return watch<T>(this, path, opts);
  }

  /** Any verb on any path: throttled, timed out, JSON in and out. */
  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    await this.limiter?.wait(opts.signal);
    const hasBody = opts.body !== undefined;
    const text = await this.transport.send(method, path, {
      query: opts.query,
      headers: opts.headers,
      signal: opts.signal,
      timeoutMs: opts.timeoutMs ?? this.timeoutMs,
      body: hasBody ? (typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)) : undefined,
      contentType: hasBody ? (opts.contentType ?? 'application/json') : undefined,
    });
    if (text === '' || opts.discardBody) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      const url = this.transport.url(path, opts.query).href;
      throw new Error(`${method} ${url}: the response is not JSON: ${text.slice(0, 200)}`);
    }
  }

  /** A raw streaming GET (used by watch); not throttled. */
  stream(path: string, opts: { query?: Query; signal?: AbortSignal } = {}): Promise<StreamResponse> {
    return this.transport.stream(path, opts);
  }

  /** Closes the connection pool; open watch streams are cut. */
  close(): Promise<void> {
    return this.transport.close();
  }
}

function writeQuery(opts: WriteOptions): Query {
  return {
    dryRun: opts.dryRun ? 'All' : undefined,
    fieldManager: opts.fieldManager,
    fieldValidation: opts.fieldValidation,
    ...opts.query,
  };
}
