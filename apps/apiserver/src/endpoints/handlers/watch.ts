import { once } from 'node:events';
import {
  escapeFieldValue,
  notAcceptable,
  parseFieldSelector,
  toStatus,
  type ListOptions,
} from '@keel/apimachinery';
import { PROTOBUF_WATCH } from '@keel/protobuf';
import type { WatchEvent, WatchSink } from '@keel/storage';
import { apiVersionOf, type InternalObject } from '../../registry/resource-view.js';
import { RESOURCE } from '../media-options.js';
import { resourceMedia, STREAM_MEDIA_TYPES } from '../negotiate.js';
import { asPartialObjectMetadata, partialTarget } from '../partial-metadata.js';
import { protobufFor } from '../respond.js';
import { tableWatchEncoder } from '../table.js';
import { connectionThrottle } from './connection-throttle.js';
import type { HandlerRequest, RequestScope } from './scope.js';
import { tableOptions } from './table-output.js';

/** A bookmark's metadata: its resourceVersion, and the annotation that ends the initial events. */
function bookmarkMetadata(ev: {
  resourceVersion: string;
  initialEventsEnd?: boolean;
}): Record<string, unknown> {
  const metadata: Record<string, unknown> = { resourceVersion: ev.resourceVersion };
  if (ev.initialEventsEnd) metadata['annotations'] = { 'k8s.io/initial-events-end': 'true' };
  return metadata;
}

/** Bytes a watch response may hold unsent before the stream waits for the client. */
const WATCH_BUFFER_BYTES = 256 * 1024;

/** A random duration in [min, 2*min): many watches opened together do not all end together. */
function defaultTimeoutSeconds(min: number): number {
  return min + Math.floor(Math.random() * min);
}

/**
 * Streams changes as newline-delimited JSON (`{"type":...,"object":...}` per line, each written
 * as it arrives), or for a protobuf client as length-prefixed WatchEvent frames: 200 at once with headers flushed, then events until timeoutSeconds, the client
 * leaves, the server shuts down, or an ERROR event (e.g. 410 Expired) ends it.
 */
export async function watchResource(
  scope: RequestScope,
  r: HandlerRequest,
  opts: ListOptions,
): Promise<void> {
  const { req, res, info } = r;
  // kubectl get -w asks for Tables: every event's object is then a one-row Table, the first with
  // the column definitions.
  const media = resourceMedia(req);
  // A YAML clause is served for a get or list but has no stream form: the watch's 406.
  if (media?.encoding === 'yaml') throw notAcceptable(STREAM_MEDIA_TYPES);
  const table = tableOptions(r);
  const tableEvent = table && tableWatchEncoder(scope.view, table, () => new Date());
  // The metadata client's watches: each event's object as a PartialObjectMetadata.
  const partial = partialTarget(media);
  const stop = new AbortController();
  // A watch on a named path follows that one object (clients usually send the field selector instead).
  const fieldSelector =
    info.name === ''
      ? opts.fieldSelector
      : parseFieldSelector(
          [opts.fieldSelector.toString(), `metadata.name=${escapeFieldValue(info.name)}`]
            .filter((s) => s !== '')
            .join(','),
        );
  const throttle = connectionThrottle(req, scope.maxConnectionBytesPerSec);
  const apiVersion = apiVersionOf(scope.view);
  const pb = tableEvent
    ? undefined
    : protobufFor(
        req,
        partial
          ? { apiVersion: 'meta.k8s.io/v1', kind: partial.kind }
          : { apiVersion, kind: scope.view.kind },
        RESOURCE,
      );
  // The event as it goes on the wire: a JSON line, or a protobuf frame built from the same parts.
  const encodeEvent = (type: string, object: Record<string, unknown>): string | Buffer =>
    pb ? pb.encodeWatchEvent(type, object) : JSON.stringify({ type, object });
  /** The event on the wire; null ends the stream without it. */
  const lineOf = (ev: WatchEvent<InternalObject>): string | Buffer | null => {
    if (ev.type === 'ERROR') return encodeEvent('ERROR', { ...toStatus(scope.store.watchError(ev.error)) });
    if (partial) {
      const object =
        ev.type === 'BOOKMARK'
          ? { kind: scope.view.kind, apiVersion, metadata: bookmarkMetadata(ev) }
          : scope.view.encode(ev.object);
      // As the reference's watch: an object cannot be a PartialObjectMetadataList, so the
      // first event fails to encode and ends the stream (200, nothing written).
      return partial.kind === 'PartialObjectMetadataList'
        ? null
        : encodeEvent(ev.type, asPartialObjectMetadata(object, partial));
    }
    if (ev.type === 'BOOKMARK') {
      const metadata = bookmarkMetadata(ev);
      // A bookmark carries no object to print: as a Table it is rowless, keeping only the version.
      const object = table
        ? {
            kind: 'Table',
            apiVersion: `meta.k8s.io/${table.version ?? 'v1'}`,
            metadata,
            columnDefinitions: null,
            rows: [],
          }
        : { kind: scope.view.kind, apiVersion, metadata };
      return encodeEvent('BOOKMARK', object);
    }
    if (tableEvent) return JSON.stringify(tableEvent(ev.type, ev.object));
    if (pb) return scope.store.watchFrame(ev.type, ev.object, (t, o) => pb.encodeWatchEvent(t, o));
    return scope.store.watchLine(ev.type, ev.object);
  };
  const watchEvents = scope.watchEvents.forResource(
    scope.view.group,
    scope.view.version,
    scope.view.resource,
  );
  // Every event counts, bookmarks and errors too, at its size on the wire, as kube's.
  const send = (line: string | Buffer) => {
    // Events that arrive together leave in one TLS write rather than one record each: the
    // uncork runs once the dispatch (or the microtasks) that delivers them has run.
    if (!res.writableCorked) {
      res.cork();
      process.nextTick(() => res.uncork());
    }
    if (typeof line === 'string') {
      res.write(line + '\n');
      watchEvents.sent(Buffer.byteLength(line) + 1);
    } else {
      res.write(line);
      watchEvents.sent(line.length);
    }
  };
  // Wait for a slow client instead of buffering without bound (storage ends a watcher that falls
  // too far behind); a burst of events may fill a few buffers before that. once() with the signal
  // removes its listeners either way: a long watch to a slow client does not pile them up.
  const full = () => res.writableLength > WATCH_BUFFER_BYTES;
  const drained = () =>
    once(res, 'drain', { signal: stop.signal }).then(
      () => undefined,
      () => undefined,
    );
  // Live events go from the store's dispatch straight to the response (one loop over the
  // watchers per change), unless each needs an await first (the byte budget of
  // --max-connection-bytes-per-sec); the same buffer bounds apply either way.
  const sink: WatchSink<InternalObject> | undefined = throttle
    ? undefined
    : {
        put: (ev) => {
          if (stop.signal.aborted || res.destroyed) return true;
          const line = lineOf(ev);
          if (line === null) {
            stop.abort();
            return true;
          }
          send(line);
          return !full();
        },
        ready: drained,
      };
  // Opened before the response starts, so a refused start (e.g. a resourceVersion the store has
  // not reached) is still an HTTP error.
  const events = await scope.store.watch(info.namespace, {
    labelSelector: opts.labelSelector,
    fieldSelector,
    resourceVersion: opts.resourceVersion,
    sendInitialEvents: opts.sendInitialEvents,
    bookmarks: opts.allowWatchBookmarks,
    signal: stop.signal,
    ...(sink ? { sink } : {}),
  });
  const seconds = opts.timeoutSeconds ?? defaultTimeoutSeconds(scope.minRequestTimeoutSeconds);
  const timer = setTimeout(() => stop.abort(), seconds * 1000);
  const onClose = () => stop.abort();
  req.on('close', onClose);
  res.on('close', onClose);
  scope.trackLongRunning(res, () => stop.abort());

  res.writeHead(200, {
    'Content-Type': pb ? PROTOBUF_WATCH : 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();
  try {
    // The replay (initial state, history), and with a sink nothing more: it ends with the watch.
    for await (const ev of events) {
      const line = lineOf(ev);
      if (line === null) break;
      if (throttle) {
        await throttle(typeof line === 'string' ? Buffer.byteLength(line) + 1 : line.length, stop.signal);
        if (stop.signal.aborted) break;
      }
      send(line);
      if (full()) await drained();
      if (ev.type === 'ERROR' || stop.signal.aborted) break;
    }
  } catch (err) {
    if (!stop.signal.aborted && !res.destroyed) {
      send(encodeEvent('ERROR', { ...toStatus(scope.store.watchError(err)) }));
    }
  } finally {
    clearTimeout(timer);
    req.off('close', onClose);
    if (!res.destroyed) res.end();
  }
}
