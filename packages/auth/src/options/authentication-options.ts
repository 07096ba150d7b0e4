import { checkOneOf, Duration, flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';
import { checkDurationNonNegative, WEBHOOK_VERSIONS } from './checks.js';
import { OIDCAuthenticationOptions, type OIDCConfig } from './oidc-options.js';
import {
  CLIENT_CA_FILE_USAGE,
  RequestHeaderAuthenticationOptions,
  type RequestHeaderConfig,
} from './request-header-options.js';
import { ServiceAccountAuthenticationOptions, type ServiceAccountConfig } from './service-account-options.js';

/** A remote TokenReview authenticator. */
export interface TokenWebhookConfig {
  readonly configFile: string;
  readonly version: string;
  readonly cacheTTL: Duration;
}

/** The API server's authenticators, in the order of the union they form. */
export interface AuthenticationConfig {
  readonly anonymous: boolean;
  /** '' means no x509 client-certificate authentication. */
  readonly clientCAFile: string;
  readonly tokenAuthFile: string;
  readonly bootstrapToken: boolean;
  /** Resolved: the service account issuers when --api-audiences was not given. */
  readonly apiAudiences: readonly string[];
  readonly serviceAccounts: ServiceAccountConfig;
  readonly oidc: OIDCConfig | undefined;
  /** undefined unless --requestheader-client-ca-file is set (the headers are never trusted without it). */
  readonly requestHeader: RequestHeaderConfig | undefined;
  /** undefined unless --authentication-token-webhook-config-file is set. */
  readonly tokenWebhook: TokenWebhookConfig | undefined;
  /** How long any bearer-token verdict is cached; fixed, as in the real daemon. */
  readonly tokenSuccessCacheTTL: Duration;
  readonly tokenFailureCacheTTL: Duration;
}

/** The 'Authentication' flags of the API server (kube-apiserver BuiltInAuthenticationOptions). */
export class BuiltInAuthenticationOptions implements OptionsGroup<{ authentication?: AuthenticationConfig }> {
  apiAudiences: readonly string[] = [];
  anonymousAuth = true;
  enableBootstrapTokenAuth = false;
  clientCAFile = '';
  tokenAuthFile = '';
  readonly oidc = new OIDCAuthenticationOptions();
  readonly requestHeader = new RequestHeaderAuthenticationOptions();
  readonly serviceAccounts = new ServiceAccountAuthenticationOptions();
  tokenWebhookConfigFile = '';
  tokenWebhookVersion = 'v1beta1';
  tokenWebhookCacheTTL = Duration.parse('2m');

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Authentication');
    s.var(this, 'apiAudiences', {
      name: 'api-audiences',
      type: t.strings,
      usage:
        'Identifiers of the API. The service account token authenticator will validate that tokens used against the ' +
        'API are bound to at least one of these audiences. If the --service-account-issuer flag is configured and ' +
        'this flag is not, this field defaults to a single element list containing the issuer URL.',
    });
    s.var(this, 'anonymousAuth', {
      name: 'anonymous-auth',
      type: t.bool,
      usage:
        'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another ' +
        'authentication method are treated as anonymous requests. Anonymous requests have a username of ' +
        'system:anonymous, and a group name of system:unauthenticated.',
    });
    s.var(this, 'enableBootstrapTokenAuth', {
      name: 'enable-bootstrap-token-auth',
      type: t.bool,
      usage:
        "Enable to allow bootstrap token secrets (type 'bootstrap.<domain>/token') in the 'platform-system' namespace " +
        'to be used for TLS bootstrapping authentication.',
    });
    s.var(this, 'clientCAFile', { name: 'client-ca-file', type: t.string, usage: CLIENT_CA_FILE_USAGE });
    this.oidc.addFlags(fss);
    this.requestHeader.addFlags(fss);
    this.serviceAccounts.addFlags(fss);
    s.var(this, 'tokenAuthFile', {
      name: 'token-auth-file',
      type: t.string,
      usage:
        'If set, the file that will be used to secure the secure port of the API server via token authentication.',
    });
    s.var(this, 'tokenWebhookConfigFile', {
      name: 'authentication-token-webhook-config-file',
      type: t.string,
      usage:
        'File with webhook configuration for token authentication in connection-config format. The API server will ' +
        'query the remote service to determine authentication for bearer tokens.',
    });
    s.var(this, 'tokenWebhookVersion', {
      name: 'authentication-token-webhook-version',
      type: t.string,
      usage:
        'The API version of the authentication TokenReview to send to and expect from the webhook (v1 or v1beta1).',
    });
    s.var(this, 'tokenWebhookCacheTTL', {
      name: 'authentication-token-webhook-cache-ttl',
      type: t.duration,
      usage: 'The duration to cache responses from the webhook token authenticator.',
    });
  }

  validate(): string[] {
    const errors = [
      ...this.oidc.validate(),
      ...this.serviceAccounts.validate(),
      ...this.requestHeader.validate(),
    ];
    if (this.requestHeader.usernameHeaders.length > 0 && this.requestHeader.clientCAFile === '') {
      errors.push('--requestheader-client-ca-file is required when --requestheader-username-headers is set');
    }
    errors.push(
      ...checkOneOf('authentication-token-webhook-version', this.tokenWebhookVersion, WEBHOOK_VERSIONS),
      ...checkDurationNonNegative('authentication-token-webhook-cache-ttl', this.tokenWebhookCacheTTL),
    );
    return errors;
  }

  applyTo(config: { authentication?: AuthenticationConfig }): void {
    const serviceAccounts = this.serviceAccounts.toConfig();
    config.authentication = {
      anonymous: this.anonymousAuth,
      clientCAFile: this.clientCAFile,
      tokenAuthFile: this.tokenAuthFile,
      bootstrapToken: this.enableBootstrapTokenAuth,
      apiAudiences: this.apiAudiences.length > 0 ? [...this.apiAudiences] : [...serviceAccounts.issuers],
      serviceAccounts,
      oidc: this.oidc.toConfig(),
      requestHeader: this.requestHeader.clientCAFile === '' ? undefined : this.requestHeader.toConfig(),
      tokenWebhook:
        this.tokenWebhookConfigFile === ''
          ? undefined
          : {
              configFile: this.tokenWebhookConfigFile,
              version: this.tokenWebhookVersion,
              cacheTTL: this.tokenWebhookCacheTTL,
            },
      tokenSuccessCacheTTL: Duration.parse('10s'),
      tokenFailureCacheTTL: Duration.zero,
    };
  }
}

/**
 * The API server's completion step: with no --service-account-key-file, tokens are verified with
 * the serving key (--tls-private-key-file), as the real daemon does. Options cannot do this
 * themselves because the serving key belongs to another options group.
 */
export function withServiceAccountKeyFallback(
  authn: AuthenticationConfig,
  tlsPrivateKeyFile: string,
): AuthenticationConfig {
  if (authn.serviceAccounts.keyFiles.length > 0 || tlsPrivateKeyFile === '') return authn;
  return { ...authn, serviceAccounts: { ...authn.serviceAccounts, keyFiles: [tlsPrivateKeyFile] } };
}
