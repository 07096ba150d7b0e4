import { aggregateErrors } from './aggregate.js';
import {
  ALL_AUTHENTICATED,
  ALL_UNAUTHENTICATED,
  ANONYMOUS_USER,
  type AuthenticationContext,
  type AuthenticationError,
  type AuthenticationRequest,
  type AuthenticationResult,
  type Authenticator,
  type TokenAuthenticator,
} from './types.js';

/**
 * Tries each authenticator in order; the first user wins, even after others failed. With no user,
 * the errors are aggregated (so any error makes the request a 401); with neither, undefined.
 */
export class UnionAuthenticator implements Authenticator {
  constructor(private readonly authenticators: readonly Authenticator[]) {}

  async authenticate(req: AuthenticationRequest, ctx?: AuthenticationContext): Promise<AuthenticationResult> {
    const errors: AuthenticationError[] = [];
    for (const a of this.authenticators) {
      const r = await a.authenticate(req, ctx);
      if (r === undefined) continue;
      if ('user' in r) return r;
      errors.push(r);
    }
    return aggregateErrors(errors);
  }
}

/** The same for bearer tokens (kube's tokenunion). */
export class UnionTokenAuthenticator implements TokenAuthenticator {
  constructor(private readonly authenticators: readonly TokenAuthenticator[]) {}

  async authenticateToken(token: string): Promise<AuthenticationResult> {
    const errors: AuthenticationError[] = [];
    for (const a of this.authenticators) {
      const r = await a.authenticateToken(token);
      if (r === undefined) continue;
      if ('user' in r) return r;
      errors.push(r);
    }
    return aggregateErrors(errors);
  }
}

/**
 * Adds `system:authenticated` to every user the wrapped authenticator finds, except the anonymous
 * user and users already in system:authenticated or system:unauthenticated.
 */
export class AuthenticatedGroupAdder implements Authenticator {
  constructor(private readonly inner: Authenticator) {}

  async authenticate(req: AuthenticationRequest, ctx?: AuthenticationContext): Promise<AuthenticationResult> {
    const r = await this.inner.authenticate(req, ctx);
    if (r === undefined || !('user' in r)) return r;
    const { user } = r;
    if (user.name === ANONYMOUS_USER) return r;
    if (user.groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)) return r;
    return { user: { ...user, groups: [...user.groups, ALL_AUTHENTICATED] } };
  }
}

/** The anonymous user: `system:anonymous` in `system:unauthenticated`. */
export class AnonymousAuthenticator implements Authenticator {
  authenticate(): Promise<AuthenticationResult> {
    return Promise.resolve({
      user: { name: ANONYMOUS_USER, uid: '', groups: [ALL_UNAUTHENTICATED], extra: {} },
    });
  }
}

/**
 * kube's union.NewFailOnError(authn, anonymous): the fallback runs only when the primary neither
 * found a user nor failed, so bad credentials are never downgraded to anonymous.
 */
export class FallbackOnNoCredentials implements Authenticator {
  constructor(
    private readonly primary: Authenticator,
    private readonly fallback: Authenticator,
  ) {}

  async authenticate(req: AuthenticationRequest, ctx?: AuthenticationContext): Promise<AuthenticationResult> {
    const r = await this.primary.authenticate(req, ctx);
    if (r !== undefined) return r;
    return this.fallback.authenticate(req, ctx);
  }
}
