import type { Dialer } from '@keel/client';
import type { Logger } from '@keel/log';
import type { AuthenticationConfig } from '../options/authentication-options.js';
import { ConfigError } from '../config-error.js';
import { LateLogger } from '../late-logger.js';
import { webhookEndpoint } from '../webhook/endpoint.js';
import { BearerTokenAuthenticator } from './bearer-token.js';
import { parseCertificates, readCABundleFile } from './cert-chain.js';
import { RequestHeaderAuthenticator } from './request-header.js';
import { X509Authenticator } from './x509.js';
import { LEGACY_ISSUER, ServiceAccountTokenAuthenticator } from './service-account.js';
import { loadServiceAccountKeys } from './service-account-keys.js';
import { loadTokenFile, TokenFileAuthenticator } from './token-file.js';
import { OIDCAuthenticator } from './oidc/index.js';
import { CachedTokenAuthenticator, WebhookTokenAuthenticator } from './webhook/index.js';
import { BootstrapTokenAuthenticator } from './bootstrap-token.js';
import type { ServiceAccountTokenGetter } from './token-getter.js';
import type { Authenticator, TokenAuthenticator } from './types.js';
import {
  AnonymousAuthenticator,
  AuthenticatedGroupAdder,
  FallbackOnNoCredentials,
  UnionAuthenticator,
  UnionTokenAuthenticator,
} from './union.js';

export interface AuthenticatorDeps {
  /** The controlplane egress tunnel (--egress-selector-config-file) to the OIDC issuer and the token webhook. */
  readonly dial?: Dialer | undefined;
  /** The clock for certificate validity and token expiry; tests pin it. */
  readonly now?: () => Date;
  /**
   * The store lookups of service account and bootstrap token authentication. The server passes
   * one that answers once its store is open; without it service account tokens are checked on
   * signature and claims alone, and bootstrap tokens cannot be enabled.
   */
  readonly tokenGetter?: ServiceAccountTokenGetter;
}

export interface BuiltAuthenticator {
  readonly authenticator: Authenticator;
  /** Start-up warnings to log (token file oddities, checks Keel cannot do yet). */
  readonly warnings: readonly string[];
  /**
   * The PEM bundle the secure listener must request and verify client certificates with: the
   * --client-ca-file and --requestheader-client-ca-file certificates together (each authenticator
   * then checks the chain against its own bundle). undefined when neither is set.
   */
  readonly clientCA: string | undefined;
  /**
   * Gives the remote authenticators (OIDC, token webhook) the daemon's logger once it exists;
   * what they logged before (a first failed OIDC discovery) is written then.
   */
  readonly logTo?: (logger: Logger) => void;
}

/**
 * The API server's authenticator chain, as kube-apiserver assembles it: front-proxy headers, client
 * certificates, then bearer tokens (token file, legacy and bound service account tokens, bootstrap
 * tokens, OIDC, the token webhook), the first user winning; `system:authenticated` is added to whoever is found; with --anonymous-auth a request
 * that presented no usable credentials (and produced no error) is system:anonymous.
 *
 * Throws a ConfigError (one line naming the flag) for files that cannot be loaded.
 */
export function buildAuthenticator(
  config: AuthenticationConfig,
  deps: AuthenticatorDeps = {},
): BuiltAuthenticator {
  const now = deps.now ?? (() => new Date());
  const warnings: string[] = [];
  const authenticators: Authenticator[] = [];
  const bundles: string[] = [];

  if (config.requestHeader) {
    const rh = config.requestHeader;
    const pem = readCABundleFile('requestheader-client-ca-file', rh.clientCAFile);
    bundles.push(pem);
    authenticators.push(new RequestHeaderAuthenticator({ ...rh, roots: parseCertificates(pem) }, now));
  }
  if (config.clientCAFile !== '') {
    const pem = readCABundleFile('client-ca-file', config.clientCAFile);
    bundles.push(pem);
    authenticators.push(new X509Authenticator(parseCertificates(pem), now));
  }

  const tokens: TokenAuthenticator[] = [];
  if (config.tokenAuthFile !== '') {
    const loaded = loadTokenFile(config.tokenAuthFile);
    warnings.push(...loaded.warnings);
    tokens.push(new TokenFileAuthenticator(loaded.tokens));
  }
  const sa = config.serviceAccounts;
  if (sa.keyFiles.length > 0 || sa.issuers.length > 0) {
    const keys = loadServiceAccountKeys(sa.keyFiles);
    const common = {
      keys,
      apiAudiences: config.apiAudiences,
      now,
      lookup: sa.lookup,
      ...(deps.tokenGetter ? { getter: deps.tokenGetter } : {}),
    };
    if (sa.keyFiles.length > 0) {
      tokens.push(
        new ServiceAccountTokenAuthenticator({ ...common, issuers: [LEGACY_ISSUER], kind: 'legacy' }),
      );
    }
    if (sa.issuers.length > 0) {
      tokens.push(new ServiceAccountTokenAuthenticator({ ...common, issuers: sa.issuers, kind: 'bound' }));
    }
  }
  if (config.bootstrapToken) {
    if (!deps.tokenGetter)
      throw new ConfigError('--enable-bootstrap-token-auth needs the store to read tokens from');
    tokens.push(new BootstrapTokenAuthenticator(deps.tokenGetter, now));
  }
  const logger = new LateLogger();
  if (config.oidc) {
    const caPem =
      config.oidc.caFile === '' ? undefined : readCABundleFile('oidc-ca-file', config.oidc.caFile);
    tokens.push(
      new OIDCAuthenticator(config.oidc, {
        ...(caPem ? { caPem } : {}),
        ...(deps.dial ? { dial: deps.dial } : {}),
        logger,
        now,
      }),
    );
  }
  if (config.tokenWebhook) {
    const hook = config.tokenWebhook;
    const endpoint = webhookEndpoint('authentication-token-webhook-config-file', hook.configFile, deps.dial);
    const remote = new WebhookTokenAuthenticator(endpoint, {
      version: hook.version === 'v1' ? 'v1' : 'v1beta1',
      audiences: config.apiAudiences,
      logger,
    });
    tokens.push(new CachedTokenAuthenticator(remote, hook.cacheTTL.milliseconds));
  }
  if (tokens.length > 0)
    authenticators.push(new BearerTokenAuthenticator(new UnionTokenAuthenticator(tokens)));
  const logTo = (l: Logger) => logger.attach(l);

  const clientCA = bundles.length > 0 ? bundles.join('') : undefined;
  if (authenticators.length === 0) {
    if (config.anonymous) return { authenticator: new AnonymousAuthenticator(), warnings, clientCA, logTo };
    warnings.push(
      'no authentication method is configured and --anonymous-auth is false: every request will get 401 Unauthorized',
    );
    return { authenticator: new UnionAuthenticator([]), warnings, clientCA, logTo };
  }
  let authenticator: Authenticator = new AuthenticatedGroupAdder(new UnionAuthenticator(authenticators));
  if (config.anonymous)
    authenticator = new FallbackOnNoCredentials(authenticator, new AnonymousAuthenticator());
  return { authenticator, warnings, clientCA, logTo };
}
