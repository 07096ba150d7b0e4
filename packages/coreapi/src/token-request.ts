/**
 * authentication.k8s.io/v1 TokenRequest, the body of `serviceaccounts/<name>/token`: create-only,
 * never stored. Decoding defaults expirationSeconds to an hour (SetDefaults_TokenRequestSpec);
 * ValidateTokenRequest bounds it to [10 minutes, 2^32 seconds].
 */
import { invalid, invalidValue, path, type FieldError } from '@keel/apimachinery';
import {
  objectMetaSpec,
  type ObjectMeta,
  wireCodec,
  type Decoded,
  always,
  int64,
  list,
  ptr,
  str,
  struct,
  time,
} from '@keel/resource';
import { groupTarget } from './scheme.js';

export interface BoundObjectReference {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

export interface TokenRequest {
  metadata: ObjectMeta;
  spec: { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: BoundObjectReference };
  status?: { token?: string; expirationTimestamp?: string };
}

const tokenRequestSpec = struct('v1.TokenRequest', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  spec: always(
    struct('v1.TokenRequestSpec', {
      audiences: always(list(str, '[]string')),
      expirationSeconds: ptr(int64),
      boundObjectRef: ptr(
        struct('v1.BoundObjectReference', { kind: str, apiVersion: str, name: str, uid: str }),
      ),
    }),
  ),
  status: struct('v1.TokenRequestStatus', { token: always(str), expirationTimestamp: always(time) }),
});

const codec = wireCodec<TokenRequest>(groupTarget('authentication.k8s.io', 'TokenRequest'), tokenRequestSpec);

/** An hour, the default lifetime. */
export const defaultTokenExpirationSeconds = 3600;
const MIN_EXPIRATION_SECONDS = 10 * 60;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

/** Decodes a TokenRequest body (400s for bad bodies); the status sent is dropped. */
export function decodeTokenRequest(body: unknown): Decoded<TokenRequest> {
  const decoded = codec.decode(body);
  const req = decoded.object;
  req.spec ??= {};
  req.spec.expirationSeconds ??= defaultTokenExpirationSeconds;
  delete req.status;
  return decoded;
}

/** ValidateTokenRequest, as the 422 the real server answers (the request has no name yet). */
export function validateTokenRequest(req: TokenRequest): void {
  const errs: FieldError[] = [];
  const exp = req.spec.expirationSeconds ?? defaultTokenExpirationSeconds;
  const p = path('spec', 'expirationSeconds');
  if (exp < MIN_EXPIRATION_SECONDS)
    errs.push(invalidValue(p, exp, 'may not specify a duration less than 10 minutes'));
  if (exp > MAX_EXPIRATION_SECONDS)
    errs.push(invalidValue(p, exp, 'may not specify a duration larger than 2^32 seconds'));
  if (errs.length > 0) throw invalid(tokenRequestGroupKind, '', errs);
}

export const tokenRequestGroupKind = { group: 'authentication.k8s.io', kind: 'TokenRequest' } as const;

/** The response body; `boundObjectRef` is a pointer without omitempty, so Go writes null. */
export function tokenRequestResponse(req: TokenRequest): Record<string, unknown> {
  const out = codec.encode(req);
  const spec = out['spec'] as Record<string, unknown>;
  out['spec'] = { ...spec, boundObjectRef: spec['boundObjectRef'] ?? null };
  return out;
}

/** Discovery's entry for the `token` subresource of serviceaccounts. */
export const tokenSubresource = {
  name: 'token',
  kind: 'TokenRequest',
  group: 'authentication.k8s.io',
  version: 'v1',
  verbs: ['create'],
} as const;
