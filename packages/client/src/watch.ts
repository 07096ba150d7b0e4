/**
 * Watch streams: `GET <collection>?watch=true` answered with newline-delimited JSON events.
 * The parser is independent of chunk boundaries (and of UTF-8 sequences split between chunks).
 * Server-sent ERROR events come through as events carrying their Status; a line that cannot be
 * decoded becomes one final ERROR event (client-go's StreamWatcher does the same).
 */
import { failureStatus, isStatus, type Status } from '@keel/apimachinery';
import { networkError } from './errors.js';
import type { Query, StreamResponse } from './transport.js';
import type { KubeObject } from './types.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export type WatchEvent<T = KubeObject> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; readonly object: T }
  | { readonly type: 'ERROR'; readonly object: Status };

export interface WatchOptions {
  /** Changes after this version; unset or "0" starts with synthetic ADDED events for what exists. */
  readonly resourceVersion?: string;
  readonly allowWatchBookmarks?: boolean;
  readonly fieldSelector?: string;
  readonly labelSelector?: string;
  /** The server ends the stream after this many seconds. */
  readonly timeoutSeconds?: number;
  readonly sendInitialEvents?: boolean;
  readonly resourceVersionMatch?: 'NotOlderThan';
  /** Aborting ends the iteration quietly (no error). */
  readonly signal?: AbortSignal;
}

/** What `watch` needs from a client: a raw streaming GET. */
export interface StreamSource {
  stream(path: string, opts: { query?: Query; signal?: AbortSignal }): Promise<StreamResponse>;
}

const eventTypes: ReadonlySet<string> = new Set<WatchEventType>([
  'ADDED',
  'MODIFIED',
  'DELETED',
  'BOOKMARK',
  'ERROR',
]);

/**
 * Opens a watch on `path` when iteration starts. Throws a StatusError when the server refuses it
 * with an HTTP error, and a NetworkError when the connection fails or breaks mid-stream; ends
 * when the server ends the stream.
 */
export async function* watch<T = KubeObject>(
  source: StreamSource,
  path: string,
  opts: WatchOptions = {},
): AsyncGenerator<WatchEvent<T>, void, undefined> {
  const { signal } = opts;
  const query: Query = {
    watch: 'true',
    resourceVersion: opts.resourceVersion,
    resourceVersionMatch: opts.resourceVersionMatch,
    sendInitialEvents: opts.sendInitialEvents,
    allowWatchBookmarks: opts.allowWatchBookmarks,
    fieldSelector: opts.fieldSelector,
    labelSelector: opts.labelSelector,
    timeoutSeconds: opts.timeoutSeconds,
  };
  let res: StreamResponse;
  try {
    res = await source.stream(path, { query, ...(signal ? { signal } : {}) });
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  }
  try {
    yield* parseWatchStream<T>(res.body as AsyncIterable<Uint8Array>);
  } catch (err) {
    if (signal?.aborted) return;
    throw networkError('GET', `${path} (watch)`, err);
  } finally {
    res.body.destroy();
  }
}

/** Events from a byte (or text) stream of newline-delimited JSON watch events. */
export async function* parseWatchStream<T = KubeObject>(
  chunks: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<WatchEvent<T>, void, undefined> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of chunks) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n', start)) {
      const line = buffer.slice(start, nl).trim();
      start = nl + 1;
      if (line === '') continue;
      const decoded = decodeEvent<T>(line);
      yield decoded.event;
      if (decoded.fatal) return;
    }
    buffer = buffer.slice(start);
  }
  // A last event without its newline is still a complete JSON value.
  const rest = (buffer + decoder.decode()).trim();
  if (rest !== '') yield decodeEvent<T>(rest).event;
}

function decodeEvent<T>(line: string): { event: WatchEvent<T>; fatal: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (err) {
    return decodeFailure(err instanceof Error ? err.message : String(err));
  }
  if (typeof parsed !== 'object' || parsed === null) return decodeFailure('an event must be a JSON object');
  const { type, object } = parsed as { type?: unknown; object?: unknown };
  if (typeof type !== 'string' || !eventTypes.has(type)) {
    return decodeFailure(`got invalid watch event type: ${JSON.stringify(type)}`);
  }
  if (typeof object !== 'object' || object === null) return decodeFailure(`the ${type} event has no object`);
  if (type === 'ERROR') {
    const status = isStatus(object)
      ? object
      : failureStatus({
          message: `unrecognized error object in the watch stream: ${JSON.stringify(object)}`,
        });
    return { event: { type, object: status }, fatal: false };
  }
  return { event: { type: type as 'ADDED', object: object as T }, fatal: false };
}

function decodeFailure(why: string): { event: WatchEvent<never>; fatal: true } {
  const message = `unable to decode an event from the watch stream: ${why}`;
  return {
    event: { type: 'ERROR', object: failureStatus({ message, reason: 'InternalError' }) },
    fatal: true,
  };
}
