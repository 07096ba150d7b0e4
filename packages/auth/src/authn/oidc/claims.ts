import type { OIDCConfig } from '../../options/oidc-options.js';
import type { UserInfo } from '../types.js';

type Claims = Readonly<Record<string, unknown>>;

/** Thrown for a verified token whose claims do not make a user; the message is kube's. */
export class ClaimsError extends Error {}

/** Go's json.Unmarshal into a string, as kube reads a claim. */
function stringClaim(claims: Claims, name: string, what: string): string {
  if (!(name in claims)) throw new ClaimsError(`${what}: claim not present`);
  const v = claims[name];
  if (typeof v !== 'string')
    throw new ClaimsError(`${what}: json: cannot unmarshal ${jsonType(v)} into Go value of type string`);
  return v;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

function username(claims: Claims, config: OIDCConfig): string {
  const claim = config.usernameClaim;
  const name = stringClaim(claims, claim, `oidc: parse username claims ${JSON.stringify(claim)}`);
  // With the email claim a provider that says the address is unverified must not be believed.
  if (claim === 'email' && 'email_verified' in claims) {
    const verified = claims['email_verified'];
    if (typeof verified !== 'boolean') {
      throw new ClaimsError(
        `oidc: parse 'email_verified' claim: json: cannot unmarshal ${jsonType(verified)} into Go value of type bool`,
      );
    }
    if (!verified) throw new ClaimsError('oidc: email not verified');
  }
  return config.usernamePrefix + name;
}

/** A string claim is one group, an array of strings several ("role" claims are common). */
function groups(claims: Claims, config: OIDCConfig): string[] {
  const claim = config.groupsClaim;
  if (claim === '' || !(claim in claims)) return [];
  const v = claims[claim];
  let list: string[];
  if (typeof v === 'string') list = [v];
  else if (Array.isArray(v) && v.every((g): g is string => typeof g === 'string')) list = v;
  else {
    throw new ClaimsError(
      `oidc: parse groups claim ${JSON.stringify(claim)}: json: cannot unmarshal ${jsonType(v)} into Go value of type string`,
    );
  }
  return list.map((g) => config.groupsPrefix + g);
}

function checkRequired(claims: Claims, required: ReadonlyMap<string, string>): void {
  for (const [claim, want] of required) {
    if (!(claim in claims)) throw new ClaimsError(`oidc: required claim ${claim} not present in ID token`);
    const got = stringClaim(claims, claim, `oidc: parse claim ${claim}`);
    if (got !== want) {
      throw new ClaimsError(
        `oidc: required claim ${claim} value does not match. Got = ${got}, want = ${want}`,
      );
    }
  }
}

/**
 * The user a verified ID token names (kube's OIDC claim mapping for the --oidc-* flags): the
 * username claim with its prefix, the groups claim with its prefix, every required claim present
 * with its value. No UID or extra: the flags have no mapping for them.
 */
export function userFromClaims(claims: Claims, config: OIDCConfig): UserInfo {
  const name = username(claims, config);
  const groupList = groups(claims, config);
  checkRequired(claims, config.requiredClaims);
  return { name, uid: '', groups: groupList, extra: {} };
}
