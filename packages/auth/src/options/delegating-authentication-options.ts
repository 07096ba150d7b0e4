import { Duration, flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';
import { checkDurationNonNegative } from './checks.js';
import {
  CLIENT_CA_FILE_USAGE,
  RequestHeaderAuthenticationOptions,
  type RequestHeaderConfig,
} from './request-header-options.js';

/** How the scheduler authenticates callers of its HTTPS port by asking the API server. */
export interface DelegatingAuthenticationConfig {
  /** '' means no API server to ask: bearer tokens are never verified, requests are anonymous. */
  readonly remoteConnectionConfigFile: string;
  /** Whether to skip reading missing client-CA and request-header settings from the cluster. */
  readonly skipLookup: boolean;
  readonly tolerateLookupFailure: boolean;
  /** How long TokenReview answers are cached. */
  readonly cacheTTL: Duration;
  readonly clientCAFile: string;
  readonly requestHeader: RequestHeaderConfig;
  /** Requests with no credentials are anonymous and left to authorization (always, as upstream). */
  readonly anonymous: boolean;
}

/** The scheduler's 'Authentication' flags (k8s.io/apiserver DelegatingAuthenticationOptions). */
export class DelegatingAuthenticationOptions implements OptionsGroup<{
  delegatingAuthentication?: DelegatingAuthenticationConfig;
}> {
  remoteConnectionConfigFile = '';
  skipLookup = false;
  tolerateLookupFailure = true;
  cacheTTL = Duration.parse('10s');
  clientCAFile = '';
  readonly requestHeader = new RequestHeaderAuthenticationOptions({
    usernameHeaders: ['x-remote-user'],
    groupHeaders: ['x-remote-group'],
    extraHeaderPrefixes: ['x-remote-extra-'],
  });

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Authentication');
    s.var(this, 'remoteConnectionConfigFile', {
      name: 'authentication-connection-config',
      type: t.string,
      usage:
        "connection-config file pointing at the 'core' API server with enough rights to create token reviews. This is " +
        'optional. If empty, all token requests are considered to be anonymous and no client CA is looked up in the cluster.',
    });
    s.var(this, 'skipLookup', {
      name: 'authentication-skip-lookup',
      type: t.bool,
      usage:
        'If false, the authentication-connection-config will be used to lookup missing authentication configuration ' +
        'from the cluster.',
    });
    s.var(this, 'cacheTTL', {
      name: 'authentication-token-webhook-cache-ttl',
      type: t.duration,
      usage: 'The duration to cache responses from the webhook token authenticator.',
    });
    s.var(this, 'tolerateLookupFailure', {
      name: 'authentication-tolerate-lookup-failure',
      type: t.bool,
      usage:
        'If true, failures to look up missing authentication configuration from the cluster are not considered fatal. ' +
        'Note that this can result in authentication that treats all requests as anonymous.',
    });
    s.var(this, 'clientCAFile', { name: 'client-ca-file', type: t.string, usage: CLIENT_CA_FILE_USAGE });
    this.requestHeader.addFlags(fss);
  }

  validate(): string[] {
    return [
      ...this.requestHeader.validate(),
      ...checkDurationNonNegative('authentication-token-webhook-cache-ttl', this.cacheTTL),
    ];
  }

  applyTo(config: { delegatingAuthentication?: DelegatingAuthenticationConfig }): void {
    config.delegatingAuthentication = {
      remoteConnectionConfigFile: this.remoteConnectionConfigFile,
      skipLookup: this.skipLookup,
      tolerateLookupFailure: this.tolerateLookupFailure,
      cacheTTL: this.cacheTTL,
      clientCAFile: this.clientCAFile,
      requestHeader: this.requestHeader.toConfig(),
      anonymous: true,
    };
  }
}
