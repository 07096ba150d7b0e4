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
  const issuer = sa.signingKeyFile !== '' ? new ServiceAccountTokenIssuer(first, loadSigningKey(sa.signingKeyFile)) : undefined;
  const keys = loadServiceAccountKeys(sa.keyFiles);
  try {
    const metadata = openIDMetadata({ issuer: first, jwksURI: sa.jwksURI, ...server, keys });
    return { issuer, metadata, warnings: [] };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      issuer,
      metadata: undefined,
      warnings: [
        `Could not construct pre-rendered responses for ServiceAccountIssuerDiscovery endpoints. Endpoints will not be enabled. Error: ${why}`,
      ],
    };
  }
}
