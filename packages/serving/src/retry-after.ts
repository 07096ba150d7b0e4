import type { IncomingMessage, ServerResponse } from 'node:http';

/** The most of a refused request's body read before the refusal goes out (Go: maxPostHandlerReadBytes). */
const MAX_DISCARDED_BODY_BYTES = 256 << 10;

/** kube's WithRetryAfter message, sent to every non-exempt request once draining has begun. */
export const SHUTDOWN_MESSAGE = 'The apiserver is shutting down, please try again later.';

/** Seconds kube puts in Retry-After while draining. */
export const RETRY_AFTER_SECONDS = 5;

/** Health probes and metrics scraping keep being served while draining (kube's pathPrefixesExemptFromRetryAfter). */
const EXEMPT_PATH_PREFIXES = ['/readyz', '/livez', '/healthz', '/metrics'];

/**
 * kube's isRequestExemptFromRetryAfter: probes and metrics by path prefix (a plain prefix test, as
 * kube does), and the server's own loopback client by user agent (kube: `kube-apiserver/`).
 */
export function retryAfterExemption(
  loopbackUserAgentPrefix = 'platform-apiserver/',
): (req: IncomingMessage) => boolean {
  return (req) => {
    const ua = req.headers['user-agent'];
    if (ua !== undefined && loopbackUserAgentPrefix !== '' && ua.startsWith(loopbackUserAgentPrefix))
      return true;
    const path = (req.url ?? '').split('?', 1)[0] ?? '';
    return EXEMPT_PATH_PREFIXES.some((p) => path.startsWith(p));
  };
}

/**
 * What kube's WithRetryAfter writes: Go's http.Error body (plain text, newline-terminated) with 429,
 * `Retry-After: 5` and `Connection: close`, so the client reconnects, ideally to another instance.
 */
export function writeRetryAfter(res: ServerResponse): void {
  const body = SHUTDOWN_MESSAGE + '\n';
  res.writeHead(429, {
    Connection: 'close',
    'Retry-After': String(RETRY_AFTER_SECONDS),
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * Refuses a request with {@link writeRetryAfter} once its body (up to 256 KiB, as Go discards) has
 * been read. The refusal closes the connection; closing it with request bytes still unread makes
 * the kernel send a reset, which can reach the client before it has read the 429 and turn a clean
 * refusal into a "connection reset" it cannot tell from a lost write.
 */
export function refuseWithRetryAfter(req: IncomingMessage, res: ServerResponse): void {
  let read = 0;
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    req.off('data', count);
    writeRetryAfter(res);
  };
  const count = (chunk: Buffer) => {
    read += chunk.length;
    if (read > MAX_DISCARDED_BODY_BYTES) answer();
  };
  if (req.complete) {
    answer();
    return;
  }
  req.on('data', count);
  req.once('end', answer);
  req.once('error', answer);
  req.once('close', answer);
}
