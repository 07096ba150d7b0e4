import type { KeyObject } from 'node:crypto';
import { goQuote } from '@keel/apimachinery';
import { verifyJwt, unverifiedIssuer } from './jwt.js';
import {
  boundClaims,
  ClaimError,
  legacyClaims,
  publicClaims,
  type PublicClaims,
} from './service-account-claims.js';
import { checkBoundObjects, checkLegacySecret } from './service-account-lookup.js';
import type { ServiceAccountTokenGetter } from './token-getter.js';
import {
  CREDENTIAL_ID_KEY,
  type AuthenticationResult,
  type TokenAuthenticator,
  type UserInfo,
} from './types.js';

/** The issuer of secret-based (legacy) tokens. */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
const USER_PREFIX = 'system:serviceaccount:';
const ALL_SERVICE_ACCOUNTS = 'system:serviceaccounts';
// go-jose's jwt.DefaultLeeway, which kube's validator uses for exp, nbf and iat.
const LEEWAY_SECONDS = 60;

export const SA_EXTRA = {
  podName: 'authentication.kubernetes.io/pod-name',
  podUID: 'authentication.kubernetes.io/pod-uid',
  nodeName: 'authentication.kubernetes.io/node-name',
  nodeUID: 'authentication.kubernetes.io/node-uid',
  credentialID: CREDENTIAL_ID_KEY,
} as const;

export interface ServiceAccountTokenSettings {
  /** `iss` values this authenticator owns; tokens claiming any other issuer are not looked at. */
  readonly issuers: readonly string[];
  readonly keys: readonly KeyObject[];
  /** --api-audiences; empty disables the audience check. */
  readonly apiAudiences: readonly string[];
  /** Bound tokens (TokenRequest, `kubernetes.io` claim) or legacy secret-based ones (flat claims). */
  readonly kind: 'bound' | 'legacy';
  readonly now?: () => Date;
  /**
   * The store lookups. Bound tokens are always checked against it (their account and bound
   * object must exist with the token's uids); legacy tokens only with `lookup`.
   */
  readonly getter?: ServiceAccountTokenGetter;
  /** --service-account-lookup. */
  readonly lookup?: boolean;
}

interface AccountInfo {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly podName?: string;
  readonly podUID?: string;
  readonly nodeName?: string;
  readonly nodeUID?: string;
  readonly credentialID?: string;
}

/**
 * Service account JWTs (kube's jwtTokenAuthenticator). Order of checks, as upstream: the
 * unverified `iss` must be ours (else undefined: not our token), the token must parse, a key must
 * verify the signature, `aud` must intersect --api-audiences (no `aud` means the API audiences),
 * then the validator's claim checks.
 * Last, with a getter, the store: the account (and a bound token's Pod, Secret or Node) must
 * still exist with the uid in the token; with --service-account-lookup a legacy token must still
 * be the one its Secret holds.
 */
export class ServiceAccountTokenAuthenticator implements TokenAuthenticator {
  private readonly issuers: ReadonlySet<string>;

  constructor(private readonly settings: ServiceAccountTokenSettings) {
    this.issuers = new Set(settings.issuers);
  }

  async authenticateToken(token: string): Promise<AuthenticationResult> {
    const iss = unverifiedIssuer(token);
    if (iss === undefined || !this.issuers.has(iss)) return undefined;
    const verified = verifyJwt(token, this.settings.keys);
    if (verified === undefined || 'error' in verified) return verified;
    let info: AccountInfo | { error: string };
    try {
      const pub = publicClaims(verified.claims);
      const audError = this.checkAudiences(pub.aud);
      if (audError !== undefined) return { error: audError };
      info = this.settings.kind === 'bound' ? this.bound(pub, verified.claims) : legacy(pub, verified.claims);
      if ('error' in info) return info;
    } catch (err) {
      if (err instanceof ClaimError) return { error: err.message };
      throw err;
    }
    const storeError = await this.checkStore(verified.claims, token);
    return storeError !== undefined ? { error: storeError } : { user: userInfo(info) };
  }

  private checkStore(claims: Record<string, unknown>, token: string): Promise<string | undefined> {
    const { getter } = this.settings;
    if (!getter) return Promise.resolve(undefined);
    if (this.settings.kind === 'bound') {
      return checkBoundObjects(getter, boundClaims(claims), this.settings.now?.() ?? new Date());
    }
    return this.settings.lookup
      ? checkLegacySecret(getter, legacyClaims(claims), token)
      : Promise.resolve(undefined);
  }

  private checkAudiences(aud: readonly string[]): string | undefined {
    const implicit = this.settings.apiAudiences;
    const tokenAuds = aud.length > 0 ? aud : implicit;
    if (implicit.length === 0 || tokenAuds.some((a) => implicit.includes(a))) return undefined;
    return `token audiences ${goStrings(tokenAuds)} is invalid for the target audiences ${goStrings(implicit)}`;
  }

  private bound(pub: PublicClaims, claims: Record<string, unknown>): AccountInfo | { error: string } {
    const k = boundClaims(claims);
    const now = (this.settings.now?.() ?? new Date()).getTime() / 1000;
    if (pub.nbf !== undefined && now + LEEWAY_SECONDS < pub.nbf)
      return { error: 'service account token is not valid yet' };
    if (pub.exp !== undefined && now - LEEWAY_SECONDS > pub.exp)
      return { error: 'service account token has expired' };
    if (pub.iat !== undefined && now + LEEWAY_SECONDS < pub.iat) {
      return { error: 'service account token is issued in the future' };
    }
    // Upstream the storage lookup rejects these; without one, refuse rather than invent a user.
    if (k.namespace === '' || k.serviceAccount.name === '') {
      return { error: 'service account token has been invalidated' };
    }
    return {
      namespace: k.namespace,
      name: k.serviceAccount.name,
      uid: k.serviceAccount.uid,
      ...(k.pod ? { podName: k.pod.name, podUID: k.pod.uid } : {}),
      ...(k.node ? { nodeName: k.node.name, nodeUID: k.node.uid } : {}),
      ...(pub.jti !== '' ? { credentialID: `JTI=${pub.jti}` } : {}),
    };
  }
}

function legacy(pub: PublicClaims, claims: Record<string, unknown>): AccountInfo | { error: string } {
  const c = legacyClaims(claims);
  if (pub.sub === '') return { error: 'sub claim is missing' };
  if (c.namespace === '') return { error: 'namespace claim is missing' };
  if (c.secretName === '') return { error: 'secretName claim is missing' };
  if (c.serviceAccountName === '') return { error: 'serviceAccountName claim is missing' };
  if (c.serviceAccountUID === '') return { error: 'serviceAccountUID claim is missing' };
  const split = splitUsername(pub.sub);
  if (!split || split.namespace !== c.namespace || split.name !== c.serviceAccountName) {
    return { error: 'sub claim is invalid' };
  }
  return { namespace: c.namespace, name: c.serviceAccountName, uid: c.serviceAccountUID };
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `system:serviceaccount:<ns>:<name>` with a valid namespace and name, else undefined. */
export function splitUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(USER_PREFIX)) return undefined;
  const parts = username.slice(USER_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace = '', name = ''] = parts;
  if (namespace.length > 63 || !DNS1123_LABEL.test(namespace)) return undefined;
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) return undefined;
  return { namespace, name };
}

/** kube's ServiceAccountInfo.UserInfo. */
function userInfo(sa: AccountInfo): UserInfo {
  const extra: Record<string, string[]> = {};
  if (sa.podName && sa.podUID) {
    extra[SA_EXTRA.podName] = [sa.podName];
    extra[SA_EXTRA.podUID] = [sa.podUID];
  }
  if (sa.credentialID) extra[SA_EXTRA.credentialID] = [sa.credentialID];
  if (sa.nodeName) {
    extra[SA_EXTRA.nodeName] = [sa.nodeName];
    if (sa.nodeUID) extra[SA_EXTRA.nodeUID] = [sa.nodeUID];
  }
  return {
    name: `${USER_PREFIX}${sa.namespace}:${sa.name}`,
    uid: sa.uid,
    groups: [ALL_SERVICE_ACCOUNTS, `${ALL_SERVICE_ACCOUNTS}:${sa.namespace}`],
    extra,
  };
}

/** Go's `%q` of a []string: `["a" "b"]`. */
function goStrings(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}
