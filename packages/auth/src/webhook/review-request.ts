import { StatusError } from '@keel/apimachinery';
import type { RestClient } from '@keel/client';

/** kube's wait.Backoff for webhook calls. */
export interface RetryBackoff {
  readonly initialMs: number;
  readonly factor: number;
  /** Each wait is lengthened by up to this fraction, at random. */
  readonly jitter: number;
  /** Attempts in all, the first included. */
  readonly steps: number;
}

/** k8s.io/apiserver DefaultAuthWebhookRetryBackoff. */
export const DEFAULT_REVIEW_BACKOFF: RetryBackoff = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

/** The delegated clients' timeout (TokenRequestTimeout, ClientTimeout): 10s for a whole review. */
export const REVIEW_TIMEOUT_MS = 10_000;

/**
 * kube's webhook.DefaultShouldRetry: a reset connection, an InternalError, a Timeout, a 429 or
 * any answer asking to come back later is worth another try. A refused connection is not.
 */
export function isRetriable(err: unknown): boolean {
  if (err instanceof StatusError) {
    const reason = err.reason;
    if (reason === 'InternalError' || reason === 'Timeout' || reason === 'TooManyRequests') return true;
    if (reason === 'ServerTimeout') return true;
    return (err.status.details?.retryAfterSeconds ?? 0) > 0;
  }
  for (let cur: unknown = err, depth = 0; cur instanceof Error && depth < 5; depth++) {
    const code = (cur as NodeJS.ErrnoException).code;
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return true;
    cur = cur.cause;
  }
  return false;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export interface ReviewRequestOptions {
  readonly backoff?: RetryBackoff;
  readonly timeoutMs?: number;
}

/**
 * POSTs a review and returns the answer, as kube's webhook.WithExponentialBackoff does: transient
 * failures are retried with backoff until the steps or the deadline run out, and the last real
 * failure is what is thrown (not the deadline's own error, unless nothing else happened).
 */
export async function postReview(
  client: RestClient,
  path: string,
  body: unknown,
  opts: ReviewRequestOptions = {},
): Promise<unknown> {
  const backoff = opts.backoff ?? DEFAULT_REVIEW_BACKOFF;
  const timeoutMs = opts.timeoutMs ?? REVIEW_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const expired = () => new Error(`webhook call failed: no answer within ${timeoutMs}ms`);
  let wait = backoff.initialMs;
  let last: Error | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.create<unknown>(path, body, { signal: deadline, timeoutMs });
    } catch (err) {
      // The deadline's abort reason says nothing about the server; the failure before it does.
      if (deadline.aborted) throw last ?? expired();
      last = err instanceof Error ? err : new Error(String(err));
      if (!isRetriable(err) || attempt >= backoff.steps) throw last;
    }
    await sleep(wait * (1 + Math.random() * backoff.jitter), deadline);
    wait *= backoff.factor;
    if (deadline.aborted) throw last;
  }
}

/** The text of a failure, for logs and for the error a review returns. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks that a webhook answered with the kind of object asked about, as kube's decoder does
 * before reading it; anything else (an empty object, a Status, HTML turned JSON) is a failure of
 * the webhook, never an answer.
 */
export function expectKind(answer: unknown, kind: string, group: string): Record<string, unknown> {
  if (!isRecord(answer)) throw new Error(`the webhook answered ${JSON.stringify(answer)}, not a ${kind}`);
  const got = answer['kind'];
  if (typeof got !== 'string' || got === '')
    throw new Error(`Object 'Kind' is missing in '${JSON.stringify(answer).slice(0, 200)}'`);
  const apiVersion = typeof answer['apiVersion'] === 'string' ? answer['apiVersion'] : '';
  if (got !== kind || !apiVersion.startsWith(`${group}/`))
    throw new Error(`no kind "${got}" is registered for version "${apiVersion}"`);
  return answer;
}
