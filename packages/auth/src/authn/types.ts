import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/** Who a request is from (kube's user.Info). */
export interface UserInfo {
  readonly name: string;
  readonly uid: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

/**
 * One authenticator's verdict: a user, an error (credentials were presented and are bad: the
 * request gets a 401), or undefined (this method does not apply to the request).
 */
export type AuthenticationResult = { readonly user: UserInfo } | AuthenticationError | undefined;

export interface AuthenticationError {
  readonly error: string;
  /** The individual messages when several authenticators failed; `error` is their Go-style aggregate. */
  readonly causes?: readonly string[];
}

/** The parts of an `http.IncomingMessage` authentication reads; an IncomingMessage is one. */
export interface AuthenticationRequest {
  readonly headers: IncomingHttpHeaders;
  /** Name/value pairs as received: the only place repeated headers (X-Remote-Group) stay apart. */
  readonly rawHeaders: readonly string[];
  readonly socket?: Socket | null;
}

/**
 * What authenticators report besides the verdict. The filter owns the response and the request, so
 * the authenticators only record here what kube does directly on them.
 */
export interface AuthenticationContext {
  /** Texts for `Warning: 299 - "<text>"` response headers (kube's warning.AddWarning). */
  readonly warnings: string[];
  /**
   * Lower-case names of the headers the successful authenticator read its credentials from; the
   * filter removes them (and Authorization, which it always drops on success) before going on.
   */
  readonly consumedHeaders: string[];
}

export function newAuthenticationContext(): AuthenticationContext {
  return { warnings: [], consumedHeaders: [] };
}

export interface Authenticator {
  authenticate(req: AuthenticationRequest, ctx?: AuthenticationContext): Promise<AuthenticationResult>;
}

/** Authenticates the token of an `Authorization: Bearer` header (kube's authenticator.Token). */
export interface TokenAuthenticator {
  authenticateToken(token: string): Promise<AuthenticationResult>;
}

export const ANONYMOUS_USER = 'system:anonymous';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
/** Members bypass authorization entirely. */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';

export function isUser(r: AuthenticationResult): r is { readonly user: UserInfo } {
  return r !== undefined && 'user' in r;
}

export function isError(r: AuthenticationResult): r is AuthenticationError {
  return r !== undefined && 'error' in r;
}
