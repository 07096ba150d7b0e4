import { headerValue } from './headers.js';
import type {
  AuthenticationContext,
  AuthenticationRequest,
  AuthenticationResult,
  Authenticator,
  TokenAuthenticator,
} from './types.js';

export const INVALID_BEARER_TOKEN = 'invalid bearer token';
export const EXTRA_SPACE_WARNING =
  'the provided Authorization header contains extra space before the bearer token, and is ignored';

/** What an Authorization header holds, per kube's bearertoken authenticator. */
export type BearerToken = { readonly token: string } | { readonly ignored: true; readonly warning?: string };

/**
 * Parses `Authorization: Bearer <token>`. The header is trimmed and split on single spaces; the
 * scheme is case-insensitive; words after the token are ignored. An empty token means the header
 * is ignored, with a warning when it came from two spaces after the scheme.
 */
export function parseBearerHeader(header: string): BearerToken {
  const auth = header.trim();
  if (auth === '') return { ignored: true };
  const parts = splitN(auth, ' ', 3);
  if (parts.length < 2 || parts[0]?.toLowerCase() !== 'bearer') return { ignored: true };
  const token = parts[1] ?? '';
  if (token === '')
    return parts.length === 3 ? { ignored: true, warning: EXTRA_SPACE_WARNING } : { ignored: true };
  return { token };
}

/** Go's strings.SplitN. */
function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

/**
 * The request authenticator for bearer tokens: a token nobody accepts and nobody rejects with a
 * reason is `invalid bearer token` (a 401), never anonymous. On success the Authorization header is
 * recorded as consumed.
 */
export class BearerTokenAuthenticator implements Authenticator {
  constructor(private readonly tokens: TokenAuthenticator) {}

  async authenticate(req: AuthenticationRequest, ctx?: AuthenticationContext): Promise<AuthenticationResult> {
    const parsed = parseBearerHeader(headerValue(req, 'authorization'));
    if (!('token' in parsed)) {
      if (parsed.warning !== undefined) ctx?.warnings.push(parsed.warning);
      return undefined;
    }
    const result = await this.tokens.authenticateToken(parsed.token);
    if (result === undefined) return { error: INVALID_BEARER_TOKEN };
    if ('user' in result) ctx?.consumedHeaders.push('authorization');
    return result;
  }
}
