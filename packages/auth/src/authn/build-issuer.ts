import type { AuthenticationConfig } from '../options/authentication-options.js';
import { loadServiceAccountKeys } from './service-account-keys.js';
import { openIDMetadata, type OpenIDMetadata } from './service-account-discovery.js';
import { loadSigningKey, ServiceAccountTokenIssuer } from './service-account-signer.js';

/** What the API server issues and publishes for service accounts. */
export interface BuiltServiceAccountIssuer {
  /** Signs TokenRequests; undefined without --service-account-signing-key-file (no `token` subresource). */
  readonly issuer: ServiceAccountTokenIssuer | undefined;
  /** The discovery documents; undefined without an issuer, or when it is not an https URL. */
  readonly metadata: OpenIDMetadata | undefined;
  readonly warnings: readonly string[];
}

// Kubelets ask for 3607 s; extension turns such tokens into year-long ones.
const WARN_ONLY_SECONDS = 3607;
const EXTENDED_SECONDS = 365 * 24 * 60 * 60;

/** Upstream's start-up warnings when a lifetime cap and extension pull against each other. */
function expirationWarnings(sa: AuthenticationConfig['serviceAccounts']): string[] {
  const max = sa.maxExpiration;
  if (!sa.extendExpiration || max === undefined) return [];
  const out: string[] = [];
  if (max.seconds < WARN_ONLY_SECONDS) {
    out.push(
      `service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than ${WARN_ONLY_SECONDS} seconds (currently ${max.toString()})`,
    );
  }
  if (max.seconds < EXTENDED_SECONDS) {
    out.push(
      `service-account-extend-token-expiration is true, enabling tokens valid up to ${EXTENDED_SECONDS} seconds, which is longer than service-account-max-token-expiration set to ${max.toString()} seconds`,
    );
  }
  return out;
}

/**
 * The token issuer and the issuer discovery documents, from the --service-account-* flags. A
 * signing key that cannot be read is a ConfigError (one line at start-up); an issuer the
 * discovery documents cannot describe only leaves them out, with a warning, as upstream.
 */
export function buildServiceAccountIssuer(
  config: AuthenticationConfig,
  server: { readonly externalHost: string; readonly port: number },
): BuiltServiceAccountIssuer {
  const sa = config.serviceAccounts;
  const first = sa.issuers[0];
  if (first === undefined) return { issuer: undefined, metadata: undefined, warnings: [] };
  const warnings = expirationWarnings(sa);
  const issuer =
    sa.signingKeyFile !== ''
      ? new ServiceAccountTokenIssuer(first, loadSigningKey(sa.signingKeyFile))
      : undefined;
  const keys = loadServiceAccountKeys(sa.keyFiles);
  try {
    const metadata = openIDMetadata({ issuer: first, jwksURI: sa.jwksURI, ...server, keys });
    return { issuer, metadata, warnings };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      issuer,
      metadata: undefined,
      warnings: [
        ...warnings,
        `Could not construct pre-rendered responses for ServiceAccountIssuerDiscovery endpoints. Endpoints will not be enabled. Error: ${why}`,
      ],
    };
  }
}
