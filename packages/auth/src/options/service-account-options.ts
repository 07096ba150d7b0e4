import { Duration, flagTypes as t, type NamedFlagSets } from '@keel/flags';
import { parseUrl } from './checks.js';

/** Service account token issuing and verification. */
export interface ServiceAccountConfig {
  /** The first signs issued tokens; all are accepted in `iss`. */
  readonly issuers: readonly string[];
  /** '' means derived from the external host when the discovery document is served. */
  readonly jwksURI: string;
  /**
   * Public keys that verify tokens. Empty here means "not given": the API server's completion
   * step falls back to the TLS private key file (see `withServiceAccountKeyFallback`).
   */
  readonly keyFiles: readonly string[];
  readonly signingKeyFile: string;
  readonly lookup: boolean;
  readonly extendExpiration: boolean;
  /** undefined: no cap on requested token lifetimes. */
  readonly maxExpiration: Duration | undefined;
}

const MIN_MAX_EXPIRATION = Duration.parse('1h');
const MAX_MAX_EXPIRATION = Duration.fromSeconds(2 ** 32);

/** The --service-account-* flags of the API server. */
export class ServiceAccountAuthenticationOptions {
  keyFiles: readonly string[] = [];
  lookup = true;
  issuers: readonly string[] = [];
  jwksURI = '';
  signingKeyFile = '';
  maxExpiration: Duration = Duration.zero;
  extendExpiration = true;

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Authentication');
    s.var(this, 'keyFiles', {
      name: 'service-account-key-file',
      type: t.stringArray,
      usage:
        'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. ' +
        'The specified file can contain multiple keys, and the flag can be specified multiple times with different ' +
        'files. If unspecified, --tls-private-key-file is used. Must be specified when ' +
        '--service-account-signing-key-file is provided.',
    });
    s.var(this, 'lookup', {
      name: 'service-account-lookup',
      type: t.bool,
      usage: 'If true, validate ServiceAccount tokens exist in the store as part of authentication.',
    });
    s.var(this, 'issuers', {
      name: 'service-account-issuer',
      type: t.stringArray,
      usage:
        'Identifier of the service account token issuer. The issuer will assert this identifier in "iss" claim of ' +
        'issued tokens. This value is a string or URI. It is highly recommended that this value be an https URL ' +
        'capable of serving OpenID discovery documents at {service-account-issuer}/.well-known/openid-configuration. ' +
        'When this flag is specified multiple times, the first is used to generate tokens and all are used to ' +
        'determine which issuers are accepted.',
    });
    s.var(this, 'jwksURI', {
      name: 'service-account-jwks-uri',
      type: t.string,
      usage:
        'Overrides the URI for the JSON Web Key Set in the discovery doc served at /.well-known/openid-configuration. ' +
        'This flag is useful if the discovery doc and key set are served to relying parties from a URL other than ' +
        "the API server's external (as auto-detected or overridden with external-hostname).",
    });
    s.var(this, 'signingKeyFile', {
      name: 'service-account-signing-key-file',
      type: t.string,
      usage:
        'Path to the file that contains the current private key of the service account token issuer. The issuer ' +
        'will sign issued ID tokens with this private key.',
    });
    s.var(this, 'maxExpiration', {
      name: 'service-account-max-token-expiration',
      type: t.duration,
      usage:
        'The maximum validity duration of a token created by the service account token issuer. If an otherwise ' +
        'valid TokenRequest with a validity duration larger than this value is requested, a token will be issued ' +
        'with a validity duration of this value.',
    });
    s.var(this, 'extendExpiration', {
      name: 'service-account-extend-token-expiration',
      type: t.bool,
      usage:
        'Turns on projected service account expiration extension during token generation, which helps safe ' +
        'transition from legacy token to bound service account token feature. If this flag is enabled, admission ' +
        'injected tokens would be extended up to 1 year to prevent unexpected failure during transition, ignoring ' +
        'value of service-account-max-token-expiration.',
    });
  }

  validate(): string[] {
    const errors: string[] = [];
    const seen = new Set<string>();
    for (const issuer of this.issuers) {
      if (issuer === '') {
        errors.push('--service-account-issuer should not be an empty string');
      } else if (issuer.includes(':') && parseUrl(issuer) === undefined) {
        errors.push(
          `--service-account-issuer ${JSON.stringify(issuer)} contained a ':' but was not a valid URL`,
        );
      } else if (seen.has(issuer)) {
        errors.push(`--service-account-issuer ${JSON.stringify(issuer)} is already specified`);
      }
      seen.add(issuer);
    }
    if (this.jwksURI !== '') {
      const url = parseUrl(this.jwksURI);
      if (url === undefined)
        errors.push(`--service-account-jwks-uri ${JSON.stringify(this.jwksURI)} must be a valid URL`);
      else if (url.protocol !== 'https:') {
        errors.push(`--service-account-jwks-uri requires https scheme, parsed as: ${url.href}`);
      }
    }
    if (this.signingKeyFile !== '') {
      if (this.issuers.length === 0) {
        errors.push('--service-account-issuer is required when --service-account-signing-key-file is set');
      }
      if (this.keyFiles.length === 0) {
        errors.push('--service-account-key-file is required when --service-account-signing-key-file is set');
      }
    }
    if (!this.maxExpiration.isZero()) {
      if (
        this.maxExpiration.compare(MIN_MAX_EXPIRATION) < 0 ||
        this.maxExpiration.compare(MAX_MAX_EXPIRATION) > 0
      ) {
        errors.push(
          `--service-account-max-token-expiration must be between 1 hour and 2^32 seconds, got ${this.maxExpiration.toString()}`,
        );
      }
    }
    return errors;
  }

  toConfig(): ServiceAccountConfig {
    return {
      issuers: [...this.issuers],
      jwksURI: this.jwksURI,
      keyFiles: [...this.keyFiles],
      signingKeyFile: this.signingKeyFile,
      lookup: this.lookup,
      extendExpiration: this.extendExpiration,
      maxExpiration: this.maxExpiration.isZero() ? undefined : this.maxExpiration,
    };
  }
}
