import type { IncomingMessage, ServerResponse } from 'node:http';
import { assertCheckName, errorText, pingCheck, type HealthChecker } from './checker.js';
import { compareGoStrings, goQuote } from '@keel/apimachinery';

/**
 * Serves the request and returns true when the path is one of its own, otherwise returns false
 * without touching `res`. The response is written asynchronously, after the checks settle.
 */
export type HealthHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface HealthHandlerOptions {
  /**
   * Receives the real error of every failed check (the aggregate body only says "reason
   * withheld", because the probe paths are public). `path` is the path that was served,
   * e.g. `/readyz` or `/readyz/store`. Must not throw.
   */
  onFailure?: (path: string, name: string, err: unknown) => void;
  /** Called once, the first time the aggregate path reports success (readyz uses it). */
  onFirstHealthy?: () => void;
}

type Outcome = { kind: 'ok' } | { kind: 'excluded' } | { kind: 'failed'; err: unknown };

/**
 * Builds the handler for one probe root (`/healthz`, `/livez`, `/readyz`): the aggregate path
 * itself (exact match, any method, `verbose` and repeated `exclude` query parameters) and
 * `<root>/<name>` for each check. Any other path under `<root>/` gets Go's plain 404. With no
 * checks it serves `ping`, as the real server does.
 */
export function healthHandler(
  root: string,
  checks: readonly HealthChecker[],
  options: HealthHandlerOptions = {},
): HealthHandler {
  if (!/^\/[^/]/.test(root) || root.endsWith('/'))
    throw new Error(`health path must look like "/livez", got ${JSON.stringify(root)}`);
  const served = checks.length === 0 ? [pingCheck] : [...checks];
  const byName = new Map<string, HealthChecker>();
  for (const check of served) {
    assertCheckName(check.name);
    if (byName.has(check.name)) throw new Error(`duplicate health check "${check.name}" on ${root}`);
    byName.set(check.name, check);
  }
  // The last line names the endpoint without its slash: "readyz check passed".
  const label = root.slice(1).split('/')[0] ?? '';
  const { onFailure, onFirstHealthy } = options;
  let healthyOnce = false;

  async function serveAggregate(res: ServerResponse, query: URLSearchParams): Promise<void> {
    const excluded = new Set(query.getAll('exclude'));
    const signal = requestSignal(res);
    const outcomes = await Promise.all(
      served.map((c) => (excluded.has(c.name) ? Promise.resolve(excludedOutcome) : run(c, signal))),
    );
    let lines = '';
    served.forEach((check, i) => {
      const outcome = outcomes[i] ?? excludedOutcome;
      excluded.delete(check.name);
      if (outcome.kind === 'excluded') lines += `[+]${check.name} excluded: ok\n`;
      else if (outcome.kind === 'ok') lines += `[+]${check.name} ok\n`;
      else lines += `[-]${check.name} failed: reason withheld\n`;
    });
    if (excluded.size > 0) {
      const names = [...excluded].sort(compareGoStrings).map(goQuote).join(',');
      lines += `warn: some health checks cannot be excluded: no matches for ${names}\n`;
    }
    const failed = served.flatMap((check, i) => {
      const outcome = outcomes[i];
      return outcome?.kind === 'failed' ? [{ name: check.name, err: outcome.err }] : [];
    });
    for (const { name, err } of failed) onFailure?.(root, name, err);
    if (failed.length > 0) {
      // Failures are always verbose; like Go's http.Error the body ends in a newline.
      writeText(res, 500, `${lines}${label} check failed\n`);
      return;
    }
    if (!healthyOnce) {
      healthyOnce = true;
      onFirstHealthy?.();
    }
    // `verbose` is a bare flag: any value, even "false", turns it on.
    writeText(res, 200, query.has('verbose') ? `${lines}${label} check passed\n` : 'ok');
  }

  async function serveOne(res: ServerResponse, path: string, check: HealthChecker): Promise<void> {
    const outcome = await run(check, requestSignal(res));
    if (outcome.kind !== 'failed') {
      writeText(res, 200, 'ok');
      return;
    }
    onFailure?.(path, check.name, outcome.err);
    // Unlike the aggregate body, the per-check path shows the reason: it is for operators.
    writeText(res, 500, `internal server error: ${errorText(outcome.err)}\n`);
  }

  return (req, res) => {
    const target = req.url ?? '/';
    // Every request of the server passes the three probe roots' handlers: one that cannot name
    // this root (no escape that could decode to it) is passed on without splitting its target.
    if (!target.startsWith(root) && !target.includes('%')) return false;
    const { path, query } = splitUrl(target);
    let work: Promise<void>;
    if (path === root) {
      work = serveAggregate(res, query());
    } else if (path.startsWith(`${root}/`)) {
      const check = byName.get(path.slice(root.length + 1));
      if (check === undefined) {
        writeText(res, 404, '404 page not found\n');
        return true;
      }
      work = serveOne(res, path, check);
    } else {
      return false;
    }
    work.catch((err: unknown) => {
      // Only a throwing callback gets here; the checks' own errors are values by now.
      writeText(res, 500, 'internal server error\n');
      process.emitWarning(err instanceof Error ? err : new Error(errorText(err)));
    });
    return true;
  };
}

/**
 * Serves with the first handler that owns the path; a daemon installs `/healthz`, `/livez` and
 * `/readyz` this way, whatever its HTTP framework.
 */
export function combineHandlers(...handlers: readonly HealthHandler[]): HealthHandler {
  return (req, res) => handlers.some((handle) => handle(req, res));
}

/** Adapts a handler to Connect/Express middleware: paths it does not own go to `next()`. */
export function toMiddleware(
  handler: HealthHandler,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return function healthMiddleware(req, res, next) {
    if (!handler(req, res)) next();
  };
}

const excludedOutcome: Outcome = { kind: 'excluded' };

async function run(check: HealthChecker, signal: AbortSignal): Promise<Outcome> {
  try {
    await check.check(signal);
    return { kind: 'ok' };
  } catch (err) {
    return { kind: 'failed', err };
  }
}

/** Aborts when the client goes away before the response is complete. */
function requestSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}

/**
 * Splits the request target without URL normalisation: `new URL` would resolve `..` segments and
 * read `//livez` as a host name, while the path must be matched as the client sent it (decoded,
 * like Go's `r.URL.Path`).
 */
function splitUrl(target: string): { path: string; query: () => URLSearchParams } {
  const q = target.indexOf('?');
  const rawPath = q === -1 ? target : target.slice(0, q);
  let path = rawPath;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // A malformed escape cannot name a check; matching the raw text still gives the right 404.
  }
  return { path, query: () => new URLSearchParams(q === -1 ? '' : target.slice(q + 1)) };
}

function writeText(res: ServerResponse, status: number, body: string): void {
  if (res.headersSent || res.destroyed) return;
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(body);
}
