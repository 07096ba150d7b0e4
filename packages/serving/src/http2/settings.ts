import type { Settings, ServerHttp2Session } from 'node:http2';

/**
 * SETTINGS_MAX_CONCURRENT_STREAMS when --http2-max-streams-per-connection is 0: Go's http2
 * default, which the generic API server of this release states explicitly (newer releases lower
 * it to 100).
 */
export const DEFAULT_MAX_CONCURRENT_STREAMS = 250;

/**
 * The per-stream receive window and largest frame the server accepts: 256 KiB, which holds most
 * API request bodies in one frame (kube shrinks Go's 1 MiB default to this); the connection's
 * window is that times the stream limit, so every allowed stream can fill its window at once.
 */
const STREAM_WINDOW_BYTES = 256 * 1024;

/** Go's server: a connection with no open stream for this long gets a GOAWAY. */
export const HTTP2_IDLE_TIMEOUT_MS = 90_000;

/** Header block limit: Go's http2 server takes the HTTP/1 limit (1 MiB) plus slack for HPACK overhead. */
const MAX_HEADER_LIST_BYTES = (1 << 20) + 320;

export function maxConcurrentStreams(flag: number): number {
  return flag > 0 ? flag : DEFAULT_MAX_CONCURRENT_STREAMS;
}

/** The SETTINGS frame every session starts with. */
export function serverSettings(maxStreams: number): Settings {
  return {
    maxConcurrentStreams: maxStreams,
    initialWindowSize: STREAM_WINDOW_BYTES,
    maxFrameSize: STREAM_WINDOW_BYTES,
    maxHeaderListSize: MAX_HEADER_LIST_BYTES,
  };
}

/**
 * Per session: the connection-level window sized for the stream limit, and Go's idle timeout.
 * Node's own session timeout counts any inactivity, open streams or not, so it would cut a quiet
 * watch; this one runs only while the session has no stream.
 */
export function manageSession(
  session: ServerHttp2Session,
  maxStreams: number,
  idleMs = HTTP2_IDLE_TIMEOUT_MS,
): void {
  const setWindow = () => {
    try {
      session.setLocalWindowSize(Math.min(STREAM_WINDOW_BYTES * maxStreams, 2 ** 31 - 1));
    } catch {
      // The session went away before it was connected; nothing to size.
    }
  };
  if (session.connecting) session.once('connect', setWindow);
  else setWindow();
  let open = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (open === 0 && !session.closed && !session.destroyed) session.close();
    }, idleMs);
    timer.unref();
  };
  arm();
  session.on('stream', (stream) => {
    open++;
    clearTimeout(timer);
    stream.once('close', () => {
      open--;
      if (open === 0) arm();
    });
  });
  session.once('close', () => clearTimeout(timer));
}
