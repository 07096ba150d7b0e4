import type { AuthenticationContext, AuthenticationRequest } from './types.js';

/** Every value of a header, in arrival order (Go's `Header[name]`), matched case-insensitively. */
export function headerValues(req: AuthenticationRequest, name: string): string[] {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() === wanted) values.push(raw[i + 1] ?? '');
  }
  return values;
}

/** The first value of a header or '' (Go's `Header.Get`). */
export function headerValue(req: AuthenticationRequest, name: string): string {
  return headerValues(req, name)[0] ?? '';
}

/** Distinct lower-case header names that start with `prefix` (case-insensitive), in arrival order. */
export function headerNamesWithPrefix(req: AuthenticationRequest, prefix: string): string[] {
  const p = prefix.toLowerCase();
  const names = new Set<string>();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const n = raw[i]?.toLowerCase();
    if (n !== undefined && n.startsWith(p)) names.add(n);
  }
  return [...names];
}

/** What the filter may change: an IncomingMessage qualifies. */
export interface MutableRequest {
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
}

/**
 * Removes the credentials a successful authentication used, so that nothing further down reads,
 * logs or forwards them: Authorization always (kube's WithAuthentication) and whatever the winning
 * authenticator consumed (the front-proxy identity headers). Both `headers` and `rawHeaders` are
 * cleaned, since either may be forwarded.
 */
export function stripCredentialHeaders(req: MutableRequest, ctx: AuthenticationContext): void {
  const names = new Set(['authorization', ...ctx.consumedHeaders.map((n) => n.toLowerCase())]);
  for (const n of names) delete req.headers[n];
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (names.has((raw[i] ?? '').toLowerCase())) raw.splice(i, 2);
  }
}

/** A `Warning` response header value, `299 - "<text>"` with `"` and `\` escaped (kube's NewWarningHeader). */
export function warningHeaderValue(text: string): string {
  return `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
