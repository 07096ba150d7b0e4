import type { IncomingMessage } from 'node:http';
import { readFileSync } from 'node:fs';
import {
  AnonymousAuthenticator,
  parseCertificates,
  X509Authenticator,
  type Authenticator,
  type UserInfo,
} from '@keel/auth';
import type { DelegatingAuthenticationConfig, DelegatingAuthorizationConfig } from '@keel/auth';

/**
 * Who may call the scheduler's secure port. Client certificates (--client-ca-file) identify
 * callers; requests without credentials are anonymous. Authorization allows
 * --authorization-always-allow-paths and the always-allowed groups without asking, and
 * forbids the rest while no --authorization-connection-config names an API server to ask.
 */
export class DelegatedAuth {
  private readonly authenticator: Authenticator;
  readonly warnings: string[] = [];

  constructor(
    private readonly authn: DelegatingAuthenticationConfig,
    private readonly authz: DelegatingAuthorizationConfig,
  ) {
    const chain: Authenticator[] = [];
    if (authn.clientCAFile !== '')
      chain.push(new X509Authenticator(parseCertificates(readFileSync(authn.clientCAFile, 'utf8'))));
    this.authenticator = chain[0] ?? new AnonymousAuthenticator();
    if (authn.remoteConnectionConfigFile !== '') {
      this.warnings.push(
        '--authentication-connection-config is not used yet: bearer tokens are not verified (TokenReview), such requests are anonymous',
      );
    }
    if (authz.remoteConnectionConfigFile !== '') {
      this.warnings.push(
        '--authorization-connection-config is not used yet (SubjectAccessReview): requests outside --authorization-always-allow-paths are forbidden',
      );
    }
  }

  /** The caller, anonymous when it presented nothing; undefined for bad credentials (401). */
  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const result = await this.authenticator.authenticate(req);
    if (result && 'user' in result) return result.user;
    if (result && 'error' in result) return undefined;
    return { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} };
  }

  /** Whether `user` may `verb` the non-resource `path`. */
  authorize(user: UserInfo, path: string): boolean {
    if (user.groups.some((g) => this.authz.alwaysAllowGroups.includes(g))) return true;
    return this.authz.alwaysAllowPaths.some((p) =>
      p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : path === p,
    );
  }
}
