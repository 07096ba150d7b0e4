import { Agent } from 'node:https';
import { dialingHttpsAgent, type Dialer } from '@keel/client';
import type { Logger } from '@keel/log';
import type { OIDCConfig } from '../../options/oidc-options.js';
import { unverifiedIssuer } from '../jwt.js';
import type { AuthenticationResult, TokenAuthenticator } from '../types.js';
import { ClaimsError, userFromClaims } from './claims.js';
import { discover, RemoteKeySet } from './provider.js';
import { verifyIDToken } from './verify.js';

/** kube polls an unreachable issuer every 10 seconds until discovery succeeds. */
export const OIDC_INIT_RETRY_MS = 10_000;

export interface OIDCAuthenticatorOptions {
  /** The PEM bundle of --oidc-ca-file; undefined trusts the host's roots. */
  readonly caPem?: string;
  readonly logger?: Logger;
  readonly now?: () => Date;
  /** How long to wait between discovery attempts; tests shorten it. */
  readonly retryMs?: number;
  /** The controlplane egress tunnel to the issuer (--egress-selector-config-file). */
  readonly dial?: Dialer;
}

/**
 * The --oidc-* authenticator (kube's oidc.Authenticator). Discovery runs in the background from
 * construction on and is retried until it succeeds, so an issuer that is down at start-up neither
 * blocks nor stops the server; until then tokens from that issuer are refused with `oidc:
 * authenticator not initialized`. Tokens claiming another issuer are not looked at (the next
 * authenticator may own them).
 */
export class OIDCAuthenticator implements TokenAuthenticator {
  private keys: RemoteKeySet | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly agent: Agent;
  private readonly now: () => Date;

  constructor(
    private readonly config: OIDCConfig,
    private readonly opts: OIDCAuthenticatorOptions = {},
  ) {
    const agentOptions = { keepAlive: true, ...(opts.caPem !== undefined ? { ca: opts.caPem } : {}) };
    this.agent = opts.dial ? dialingHttpsAgent(opts.dial, agentOptions) : new Agent(agentOptions);
    this.now = opts.now ?? (() => new Date());
    if (opts.caPem === undefined)
      opts.logger?.info("OIDC: No x509 certificates provided, will use host's root CA set");
    void this.initialize();
  }

  /** True once the issuer's discovery document has been read. */
  get initialized(): boolean {
    return this.keys !== undefined;
  }

  private async initialize(): Promise<void> {
    if (this.closed) return;
    try {
      const meta = await discover(this.config.issuerURL, this.agent);
      if (!this.closed) this.keys = new RemoteKeySet(meta.jwksURI, this.agent);
    } catch (err) {
      if (this.closed) return;
      this.opts.logger?.error('oidc authenticator: initializing plugin', { err });
      this.timer = setTimeout(() => void this.initialize(), this.opts.retryMs ?? OIDC_INIT_RETRY_MS);
      // A retry pending must not keep a stopping process alive.
      this.timer.unref();
    }
  }

  async authenticateToken(token: string): Promise<AuthenticationResult> {
    if (unverifiedIssuer(token) !== this.config.issuerURL) return undefined;
    if (this.keys === undefined) return { error: 'oidc: authenticator not initialized' };
    let claims: Record<string, unknown>;
    try {
      claims = await verifyIDToken(token, this.keys, {
        issuer: this.config.issuerURL,
        clientID: this.config.clientID,
        signingAlgs: this.config.signingAlgs,
        now: this.now,
      });
    } catch (err) {
      return { error: `oidc: verify token: ${(err as Error).message}` };
    }
    try {
      return { user: userFromClaims(claims, this.config) };
    } catch (err) {
      if (err instanceof ClaimsError) return { error: err.message };
      throw err;
    }
  }

  /** Stops retrying discovery and closes the connections to the issuer. */
  close(): void {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.agent.destroy();
  }
}
