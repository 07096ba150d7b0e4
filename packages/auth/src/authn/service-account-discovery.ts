import { isIPv6 } from 'node:net';
import type { KeyObject } from 'node:crypto';
import { keyIdOf, signingAlgorithm } from './service-account-signer.js';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

/** The two documents of service account issuer discovery, rendered once at start-up. */
export interface OpenIDMetadata {
  /** `/.well-known/openid-configuration`, served as application/json. */
  readonly configJSON: string;
  /** `/openid/v1/jwks`, served as application/jwk-set+json. */
  readonly jwksJSON: string;
}

export interface OpenIDMetadataInputs {
  /** The first --service-account-issuer. */
  readonly issuer: string;
  /** --service-account-jwks-uri; '' derives it from the external address. */
  readonly jwksURI: string;
  /** The server's external host (no port); with `port` it makes the default jwks_uri. */
  readonly externalHost: string;
  readonly port: number;
  /** The verification keys (--service-account-key-file). */
  readonly keys: readonly KeyObject[];
}

/** A public key as go-jose's JSONWebKey writes it (use, kty, kid, crv, alg, x, y, n, e). */
function jwk(key: KeyObject): Record<string, string> {
  const parts = key.export({ format: 'jwk' });
  const alg = signingAlgorithm(key);
  const head = { use: 'sig', kty: parts.kty ?? '', kid: keyIdOf(key) };
  if (parts.kty === 'EC') return { ...head, crv: parts.crv ?? '', alg, x: parts.x ?? '', y: parts.y ?? '' };
  return { ...head, alg, n: parts.n ?? '', e: parts.e ?? '' };
}

/**
 * serviceaccount.NewOpenIDMetadata: the issuer must be an https URL without a query (the OIDC
 * rule), or the endpoints are not served; the error says why.
 */
export function openIDMetadata(inputs: OpenIDMetadataInputs): OpenIDMetadata {
  const { issuer, keys } = inputs;
  if (issuer === '') throw new Error('empty issuer URL');
  if (keys.length === 0) throw new Error('no keys provided for validating keyset');
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`issuer URL must use https scheme, got: ${issuer}`);
  }
  if (url.protocol !== 'https:') throw new Error(`issuer URL must use https scheme, got: ${issuer}`);
  if (url.search !== '') throw new Error(`issuer URL may not include a query, got: ${issuer}`);
  const host = isIPv6(inputs.externalHost) ? `[${inputs.externalHost}]` : inputs.externalHost;
  const jwksURI = inputs.jwksURI !== '' ? inputs.jwksURI : `https://${host}:${inputs.port}${JWKS_PATH}`;
  const algs = [...new Set(keys.map(signingAlgorithm))].sort();
  const config = {
    issuer,
    jwks_uri: jwksURI,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
  };
  return { configJSON: JSON.stringify(config), jwksJSON: JSON.stringify({ keys: keys.map(jwk) }) };
}
