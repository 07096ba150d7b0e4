import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** The asymmetric JOSE algorithms a service account token may be signed with. */
export const SERVICE_ACCOUNT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
] as const satisfies readonly jwt.Algorithm[];

const CRYPTO_ERROR = 'go-jose/go-jose: error in cryptographic primitive';

function decodeSegment(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) return undefined;
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The unverified `iss` of a compact JWT, or undefined when the text is not one (kube's
 * hasCorrectIssuer: an authenticator only looks at tokens claiming one of its issuers).
 */
export function unverifiedIssuer(token: string): string | undefined {
  if (token.trim().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const payload = decodeSegment(parts[1] ?? '');
  if (!isObject(payload)) return undefined;
  const iss = payload.iss;
  if (iss === undefined || iss === null) return '';
  return typeof iss === 'string' ? iss : undefined;
}

export type VerifiedJwt =
  { readonly claims: Record<string, unknown> } | { readonly error: string } | undefined;

/**
 * Checks the signature with each key in turn; the first that verifies gives the claims. A token
 * that cannot be parsed or uses an algorithm outside SERVICE_ACCOUNT_ALGORITHMS is undefined (kube
 * ignores what go-jose cannot parse); a token no key verifies is an error. Time claims are not
 * checked here.
 */
export function verifyJwt(token: string, keys: readonly KeyObject[]): VerifiedJwt {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const header = decodeSegment(parts[0] ?? '');
  const payload = decodeSegment(parts[1] ?? '');
  if (!isObject(header) || !isObject(payload)) return undefined;
  if (!(SERVICE_ACCOUNT_ALGORITHMS as readonly unknown[]).includes(header.alg)) return undefined;
  for (const key of keys) {
    try {
      const claims = jwt.verify(token, key, {
        algorithms: [...SERVICE_ACCOUNT_ALGORITHMS],
        ignoreExpiration: true,
        ignoreNotBefore: true,
      });
      if (isObject(claims)) return { claims };
    } catch {
      // Wrong key or bad signature: try the next key; kube reports go-jose's text.
    }
  }
  // With no key at all there is nothing to report (Go's aggregate of no errors is nil).
  return keys.length === 0 ? undefined : { error: CRYPTO_ERROR };
}
