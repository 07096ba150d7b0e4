/**
 * Decoding of service account token claims with Go's strictness: a claim of the wrong JSON type
 * fails the token with the message encoding/json (or go-jose) would give, null is an absent claim.
 */
export class ClaimError extends Error {}

function jsonType(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function typeError(v: unknown, struct: string, field: string, type: string): ClaimError {
  return new ClaimError(
    `json: cannot unmarshal ${jsonType(v)} into Go struct field ${struct}.${field} of type ${type}`,
  );
}

export function str(obj: Record<string, unknown>, key: string, struct: string, field = key): string {
  const v = obj[key];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw typeError(v, struct, field, 'string');
  return v;
}

export function obj(
  parent: Record<string, unknown>,
  key: string,
  struct: string,
  field: string,
  type: string,
): Record<string, unknown> | undefined {
  const v = parent[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw typeError(v, struct, field, type);
  return v as Record<string, unknown>;
}

/** go-jose's NumericDate: any JSON number (seconds, fractions allowed). */
export function numericDate(claims: Record<string, unknown>, key: string): number | undefined {
  const v = claims[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number') throw new ClaimError('go-jose/go-jose/jwt: failed to unmarshal NumericDate');
  return v;
}

/** go-jose's Audience: a string or an array of strings. */
export function audience(claims: Record<string, unknown>): string[] {
  const v = claims.aud;
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((a) => typeof a === 'string')) return v;
  throw new ClaimError('go-jose/go-jose/jwt: expected string or array value to unmarshal to Audience');
}

/** The registered claims kube reads (go-jose's jwt.Claims). */
export interface PublicClaims {
  readonly iss: string;
  readonly sub: string;
  readonly aud: readonly string[];
  readonly exp: number | undefined;
  readonly nbf: number | undefined;
  readonly iat: number | undefined;
  readonly jti: string;
}

export function publicClaims(claims: Record<string, unknown>): PublicClaims {
  return {
    iss: str(claims, 'iss', 'Claims'),
    sub: str(claims, 'sub', 'Claims'),
    aud: audience(claims),
    exp: numericDate(claims, 'exp'),
    nbf: numericDate(claims, 'nbf'),
    iat: numericDate(claims, 'iat'),
    jti: str(claims, 'jti', 'Claims'),
  };
}

interface Ref {
  readonly name: string;
  readonly uid: string;
}

/** The `kubernetes.io` claim of bound tokens. */
export interface BoundClaims {
  readonly namespace: string;
  readonly serviceAccount: Ref;
  readonly pod: Ref | undefined;
  readonly secret: Ref | undefined;
  readonly node: Ref | undefined;
}

function ref(parent: Record<string, unknown>, key: string): Ref | undefined {
  const path = `kubernetes.io.${key}`;
  const o = obj(parent, key, 'kubernetes', path, 'serviceaccount.ref');
  if (!o) return undefined;
  return { name: str(o, 'name', 'ref', `${path}.name`), uid: str(o, 'uid', 'ref', `${path}.uid`) };
}

export function boundClaims(claims: Record<string, unknown>): BoundClaims {
  const k = obj(claims, 'kubernetes.io', 'privateClaims', 'kubernetes.io', 'serviceaccount.kubernetes') ?? {};
  numericDate(k, 'warnafter'); // only audited upstream, but a malformed one still fails decoding
  return {
    namespace: str(k, 'namespace', 'kubernetes', 'kubernetes.io.namespace'),
    serviceAccount: ref(k, 'serviceaccount') ?? { name: '', uid: '' },
    pod: ref(k, 'pod'),
    secret: ref(k, 'secret'),
    node: ref(k, 'node'),
  };
}

export const LEGACY_PREFIX = 'kubernetes.io/serviceaccount/';

/** The flat claims of legacy secret-based tokens. */
export interface LegacyClaims {
  readonly namespace: string;
  readonly secretName: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUID: string;
}

export function legacyClaims(claims: Record<string, unknown>): LegacyClaims {
  const s = (k: string): string => str(claims, `${LEGACY_PREFIX}${k}`, 'legacyPrivateClaims');
  return {
    namespace: s('namespace'),
    secretName: s('secret.name'),
    serviceAccountName: s('service-account.name'),
    serviceAccountUID: s('service-account.uid'),
  };
}
