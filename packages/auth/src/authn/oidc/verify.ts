import jwt from 'jsonwebtoken';
import type { RemoteKeySet } from './provider.js';

type Claims = Record<string, unknown>;

/** go-oidc accepts a token whose `nbf` is up to a minute ahead of the local clock. */
const NOT_BEFORE_LEEWAY_MS = 60_000;

export interface VerifierSettings {
  readonly issuer: string;
  readonly clientID: string;
  readonly signingAlgs: readonly string[];
  readonly now: () => Date;
}

function decode(segment: string, what: string): Claims {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch (err) {
    throw new Error(`oidc: malformed jwt ${what}: ${(err as Error).message}`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new Error(`oidc: malformed jwt ${what}: not a JSON object`);
  return v as Claims;
}

const quoteList = (list: readonly string[]) => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

/** A NumericDate claim as a Date; undefined when absent. */
function numericDate(claims: Claims, name: string): Date | undefined {
  const v = claims[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'number') throw new Error(`oidc: failed to unmarshal claims: ${name} is not a number`);
  return new Date(v * 1000);
}

/**
 * go-oidc's IDTokenVerifier.Verify, in its order: the cheap claim checks first (issuer, audience
 * contains the client ID, not expired, not before `nbf` beyond a minute of leeway), then the
 * header's algorithm against --oidc-signing-algs (so `none` and HS256 never reach a key), then
 * the signature with the issuer's key for the token's `kid`. Returns the claims; throws with
 * go-oidc's message. `iat` is not checked, as upstream.
 */
export async function verifyIDToken(token: string, keys: RemoteKeySet, s: VerifierSettings): Promise<Claims> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error(`oidc: malformed jwt, expected 3 parts got ${parts.length}`);
  const header = decode(parts[0] ?? '', 'header');
  const claims = decode(parts[1] ?? '', 'payload');

  if (claims['iss'] !== s.issuer) {
    throw new Error(
      `oidc: id token issued by a different provider, expected ${JSON.stringify(s.issuer)} got ${JSON.stringify(claims['iss'])}`,
    );
  }
  const aud = claims['aud'];
  const audiences =
    typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a) => typeof a === 'string') : [];
  if (!audiences.includes(s.clientID))
    throw new Error(`oidc: expected audience ${JSON.stringify(s.clientID)} got ${quoteList(audiences)}`);
  const now = s.now();
  // A token without `exp` has Go's zero time as its expiry: always expired.
  const expiry = numericDate(claims, 'exp') ?? new Date(-62135596800000);
  if (expiry.getTime() < now.getTime())
    throw new Error(`oidc: token is expired (Token Expiry: ${expiry.toISOString()})`);
  const notBefore = numericDate(claims, 'nbf');
  if (notBefore !== undefined && now.getTime() + NOT_BEFORE_LEEWAY_MS < notBefore.getTime()) {
    throw new Error(
      `oidc: current time ${now.toISOString()} before the nbf (not before) time: ${notBefore.toISOString()}`,
    );
  }

  const alg = header['alg'];
  if (typeof alg !== 'string' || !s.signingAlgs.includes(alg)) {
    throw new Error(
      `oidc: id token signed with unsupported algorithm, expected ${quoteList(s.signingAlgs)} got ${JSON.stringify(alg ?? '')}`,
    );
  }
  const kid = typeof header['kid'] === 'string' ? header['kid'] : undefined;
  let key: string;
  try {
    key = await keys.publicKey(kid);
  } catch (err) {
    throw new Error(`failed to verify signature: fetching keys ${(err as Error).message}`);
  }
  try {
    // Time claims were checked above with go-oidc's rules; here only the signature is.
    jwt.verify(token, key, {
      algorithms: [alg as jwt.Algorithm],
      ignoreExpiration: true,
      ignoreNotBefore: true,
    });
  } catch (err) {
    throw new Error(`failed to verify signature: ${(err as Error).message}`);
  }
  return claims;
}
